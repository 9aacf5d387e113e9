// The sandbox node joined to an API server it does not run with: a real kube-apiserver (kube-reference), or another
// sandbox's, reached over REST with a kubeconfig as a kubelet is. Nothing here touches a store: the node registers
// its Node and Lease, binds and runs the pods (as processes, in their own network namespaces with 10.244.k.n
// addresses the API server can reach for its service and pod proxies), writes pod status, and serves logs and exec
// on its kubelet endpoint to clients with a certificate of the cluster's CA (a kube-apiserver's
// --kubelet-client-certificate). It plays the scheduler too (binds every unscheduled pod), so its credentials
// need more than a kubelet's: an admin kubeconfig, or a sandbox's own node identity.
import { readFileSync } from 'node:fs';
import { kubeConfigFrom, type ConnectionSource } from '@rayjob/kube-runtime';
import type { ImageCatalog } from './kubelet/image-program.ts';
import type { CertificateAndKey } from './pki/x509.ts';
import { startSandboxNode, type SandboxNode, type SandboxNodeOptions } from './kubelet/sandbox-node.ts';

export interface JoinNodeOptions {
  /** How to reach the API server: `{ kubeconfigPath }`, or server + credentials. */
  connection: ConnectionSource;
  dir: string;
  images: ImageCatalog;
  nodeName?: string;
  /** PEM of the CA whose client certificates may read logs and exec; default: the CA the connection trusts. */
  kubeletClientCA?: string;
  /**
   * The kubelet endpoint's serving certificate for its address; default: self-signed, which a kube-apiserver without
   * --kubelet-certificate-authority accepts (one that verifies needs a certificate of that CA).
   */
  kubeletServing?: (host: string) => CertificateAndKey;
  /** Run the sandbox's endpoints controller (default false: a cluster's controller manager runs one). */
  endpointsController?: boolean;
  network?: SandboxNodeOptions['network'];
  log?: (message: string) => void;
}

/** The CA (PEM) a connection trusts for its API server, if it names one. */
export async function connectionCA(connection: ConnectionSource): Promise<string | undefined> {
  if ('server' in connection) return connection.ca ?? (connection.caFile === undefined ? undefined : readFileSync(connection.caFile, 'utf8'));
  const cluster = (await kubeConfigFrom(connection)).getCurrentCluster();
  if (cluster?.caData) return Buffer.from(cluster.caData, 'base64').toString('utf8');
  return cluster?.caFile ? readFileSync(cluster.caFile, 'utf8') : undefined;
}

export async function joinNode(options: JoinNodeOptions): Promise<SandboxNode> {
  const clientCA = options.kubeletClientCA ?? (await connectionCA(options.connection));
  return startSandboxNode({
    connection: options.connection,
    dir: options.dir,
    images: options.images,
    endpointsController: options.endpointsController ?? false,
    // Without a client CA anonymous requests pass, as the kubelet binary's default.
    kubeletServer: { ...(clientCA !== undefined && { clientCA }), ...(options.kubeletServing !== undefined && { serving: options.kubeletServing }) },
    ...(options.nodeName !== undefined && { nodeName: options.nodeName }),
    ...(options.network !== undefined && { network: options.network }),
    ...(options.log !== undefined && { log: options.log }),
  });
}
