// startSandbox: the API server plus the node-side components (kubelet, Job controller, DNS...), all in
// one temp folder. Components are started in order after the API server and stopped in reverse.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from './apiserver/server.ts';
import { startJobController, type JobController, type JobControllerOptions } from './job-controller/index.ts';
import { createKubeClient, type KubeClient } from '@rayjob/kube-runtime';
import type { ImageCatalog } from './kubelet/image-program.ts';
import { startSandboxNode, type SandboxNode, type SandboxNodeOptions } from './kubelet/sandbox-node.ts';
import { startAppsControllers, type AppsControllers } from './apps-controllers/controller.ts';
import { startServiceAccountController } from './service-accounts/controller.ts';
import { startNodeLifecycleController, type NodeLifecycleController } from './node-lifecycle/controller.ts';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from './pki/x509.ts';
import type { NodeLifecycleTiming } from './node-lifecycle/decide.ts';
import { writeKubeletKubeconfig } from './apiserver/serving/kubeconfig.ts';

export interface SandboxComponentContext {
  apiServer: ApiServer;
  url: string;
  dir: string;
  kubeconfigPath: string;
  images: ImageCatalog;
}

export interface StartedComponent {
  stop(): Promise<void>;
}

export interface SandboxComponent {
  name: string;
  start(ctx: SandboxComponentContext): Promise<StartedComponent>;
}

export interface SandboxOptions {
  /** All state in one folder (kubeconfig, logs, pod dirs). Default: a fresh temp folder, removed on stop. */
  dir?: string;
  /** Image name -> local program, for the kubelet. */
  images?: ImageCatalog;
  /** Run a node (kubelet, pod network, cluster DNS, endpoints controller). Default true. */
  kubelet?: boolean;
  /** Run the batch/v1 Job controller. Default true. */
  jobController?: boolean;
  /** CRD YAML documents or file paths installed at start. */
  crds?: string[];
  /** Extra components started after the built-in ones (and stopped before them). */
  components?: SandboxComponent[];
  apiServer?: Omit<ApiServerOptions, 'dir' | 'crds'>;
  /** Overrides for the node (network mode, DNS port, timing...). */
  node?: Partial<Omit<SandboxNodeOptions, 'url' | 'connection' | 'client' | 'dir' | 'images'>>;
  jobControllerOptions?: Partial<Omit<JobControllerOptions, 'client'>>;
  /** Run the Deployment and ReplicaSet controllers. Default true. */
  appsControllers?: boolean;
  /** Run the node lifecycle controller (nodes that stop heartbeating become Unknown). Default true. */
  nodeLifecycleController?: boolean;
  nodeLifecycleTiming?: Partial<NodeLifecycleTiming>;
  /**
   * Called once the API server answers (CRDs installed), before the node and controllers start: a client that
   * takes a while to start (an operator process) can start alongside them instead of after.
   */
  onApiServer?: (api: { url: string; kubeconfigPath: string }) => void;
}

export interface Sandbox {
  url: string;
  kubeconfigPath: string;
  dir: string;
  apiServer: ApiServer;
  /** The node (kubelet, DNS, network, host-side lookup) when `kubelet` is on. */
  node?: SandboxNode;
  jobController?: JobController;
  nodeLifecycleController?: NodeLifecycleController;
  appsControllers?: AppsControllers;
  /** Started extra components by name. */
  components: Record<string, StartedComponent>;
  stop(): Promise<void>;
}

/** The kubelet's endpoint: served with a CA-signed certificate, open to client certificates of that CA only. */
function kubeletServing(ca: CertificateAndKey): { serving: (host: string) => CertificateAndKey; clientCA: string } {
  return { serving: (host) => issueCertificate(ca, { commonName: `${host}@kubelet`, ipAddresses: [host], dnsNames: ['localhost'], usages: ['server'] }), clientCA: ca.cert };
}

/** The in-pod API endpoint's certificate: the names and address in-cluster clients use. */
function apiServing(ca: CertificateAndKey, host: string): CertificateAndKey {
  const dnsNames = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', 'localhost'];
  return issueCertificate(ca, { commonName: 'kube-apiserver', dnsNames, ipAddresses: [host], usages: ['server'] });
}

/**
 * How the node reaches the API server: like a kubelet, over TLS with a client certificate of the cluster CA
 * (system:node:<name> in group system:nodes), also written to kubelet.kubeconfig in the sandbox folder. Over plain
 * HTTP (no HTTPS port) it connects without credentials, as the sandbox's other components do.
 */
function nodeConnection(apiServer: ApiServer, ca: CertificateAndKey, nodeName: string): Pick<SandboxNodeOptions, 'url' | 'connection'> {
  if (apiServer.https === undefined) return { url: apiServer.url };
  const identity = issueCertificate(ca, { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], usages: ['client'] });
  writeKubeletKubeconfig(join(apiServer.dir, 'kubelet.kubeconfig'), apiServer.https, identity);
  return { connection: { server: apiServer.https.url, caFile: apiServer.https.caPath, cert: identity.cert, key: identity.key } };
}

const builtinComponents = new Set(['node', 'jobController', 'nodeLifecycleController', 'appsControllers', 'serviceAccountController']);

/**
 * The API server, with one cluster CA: the kubelet's serving certificate and the API server's kubelet client
 * certificate come from it, so only this API server may reach the kubelet's logs and exec.
 */
async function startClusterApiServer(options: SandboxOptions, dir: string, ca: CertificateAndKey, kubelet: boolean): Promise<ApiServer> {
  const kubeletClient = issueCertificate(ca, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usages: ['client'] });
  return startApiServer({
    https: true, ...options.apiServer, dir, ...(options.crds && { crds: options.crds }), podGracefulDeletion: kubelet,
    kubeletClient: { cert: kubeletClient.cert, key: kubeletClient.key, ca: ca.cert },
    clientCA: ca.cert,
  });
}

/** The built-in components a sandbox runs, once started. */
interface BuiltinComponents {
  node?: SandboxNode;
  jobController?: JobController;
  nodeLifecycleController?: NodeLifecycleController;
  appsControllers?: AppsControllers;
}

interface ComponentStart {
  options: SandboxOptions;
  apiServer: ApiServer;
  ca: CertificateAndKey;
  dir: string;
  /** A client of the node side's own (one per component, as separate processes would have). */
  nodeClient(component: string): Promise<KubeClient>;
  /** Every component started so far, in order (stopped in reverse). */
  started: Array<[string, StartedComponent]>;
}

/** Starts the controllers, the node and the extra components in order, recording each in `started`. */
async function startComponents({ options, apiServer, ca, dir, nodeClient, started }: ComponentStart): Promise<BuiltinComponents> {
  const out: BuiltinComponents = {};
  const serviceAccounts = startServiceAccountController(await nodeClient('serviceaccount-controller'));
  started.push(['serviceAccountController', serviceAccounts]);
  await serviceAccounts.synced;
  if (options.appsControllers ?? true) {
    out.appsControllers = startAppsControllers({ client: await nodeClient('apps-controllers') });
    started.push(['appsControllers', out.appsControllers]);
  }
  if (options.nodeLifecycleController ?? true) {
    out.nodeLifecycleController = startNodeLifecycleController({ client: await nodeClient('node-lifecycle-controller'), ...(options.nodeLifecycleTiming && { timing: options.nodeLifecycleTiming }) });
    started.push(['nodeLifecycleController', out.nodeLifecycleController]);
  }
  if (options.kubelet ?? true) {
    out.node = await startSandboxNode({
      ...options.node, ...nodeConnection(apiServer, ca, options.node?.nodeName ?? 'sandbox-node'), dir, images: options.images ?? {}, kubeletServer: kubeletServing(ca),
      apiEndpoint: { target: apiServer.url, serving: (host) => apiServing(ca, host), caCert: ca.cert },
    });
    started.push(['node', out.node]);
  }
  if (options.jobController ?? true) {
    out.jobController = startJobController({ ...options.jobControllerOptions, client: await nodeClient('job-controller') });
    started.push(['jobController', out.jobController]);
    await out.jobController.synced;
  }
  for (const c of options.components ?? []) {
    started.push([c.name, await c.start({ apiServer, url: apiServer.url, dir, kubeconfigPath: apiServer.kubeconfigPath, images: options.images ?? {} })]);
  }
  return out;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rayjob-sandbox-')));
  // A folder the caller named may not exist yet (`--dir` of the CLIs): made here, kept on stop.
  if (!ownsDir) await mkdir(dir, { recursive: true });
  const ca = createCertificateAuthority('rayjob-sandbox-ca');
  const apiServer = await startClusterApiServer(options, dir, ca, options.kubelet ?? true);
  options.onApiServer?.({ url: apiServer.url, kubeconfigPath: apiServer.kubeconfigPath });
  const started: Array<[string, StartedComponent]> = [];
  const clients: KubeClient[] = [];
  const nodeClient = async (component: string): Promise<KubeClient> => {
    const client = await createKubeClient({ server: apiServer.url }, { userAgent: `rayjob-sandbox/${component}` });
    clients.push(client);
    return client;
  };
  const stopAll = async (): Promise<void> => {
    for (const [, c] of [...started].reverse()) await c.stop();
    await Promise.all(clients.map((c) => c.close()));
    await apiServer.stop();
    if (ownsDir) await rm(dir, { recursive: true, force: true });
  };
  let builtins: BuiltinComponents;
  try {
    builtins = await startComponents({ options, apiServer, ca, dir, nodeClient, started });
  } catch (e) {
    await stopAll();
    throw e;
  }
  let stopped = false;
  return {
    url: apiServer.url,
    kubeconfigPath: apiServer.kubeconfigPath,
    dir,
    apiServer,
    ...builtins,
    components: Object.fromEntries(started.filter(([name]) => !builtinComponents.has(name))),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopAll();
    },
  };
}
