// One sandbox node, composed: pod network (per-pod network namespaces when possible, else
// loopback addresses), cluster DNS on the network's gateway, the endpoints controller, and the
// kubelet. The API server's startSandbox calls this; tests and other API servers can too.
import { createClusterLookup } from '../dns/host-lookup.ts';
import type { ClusterDns } from '../dns/dns-server.ts';
import { startClusterDns } from '../dns/dns-server.ts';
import type { EndpointsController } from '../dns/endpoints-controller.ts';
import { startEndpointsController } from '../dns/endpoints-controller.ts';
import { createKubeClient, type ConnectionSource, type KubeClient } from '@rayjob/kube-runtime';
import type { ImageCatalog } from './image-program.ts';
import type { ApiEndpoint, ApiEndpointOptions } from './api-endpoint.ts';
import { startApiEndpoint } from './api-endpoint.ts';
import type { Kubelet, KubeletOptions } from './kubelet.ts';
import { startKubelet } from './kubelet.ts';
import { removeCreatedMountPoints } from './container-process.ts';
import { anyLiveClaim } from './network-claims.ts';
import type { KubeletTiming } from './kubelet-config.ts';
import type { NetworkMode, PodNetwork } from './pod-network.ts';
import { netnsSupported, startLoopbackNetwork, startNetnsNetwork } from './pod-network.ts';

export interface SandboxNodeOptions {
  /** API server URL, or a kubeconfig-like connection (client certificate, CA, token), or a ready client. */
  url?: string;
  connection?: ConnectionSource;
  client?: KubeClient;
  dir: string;
  images: ImageCatalog;
  /** 'auto' (default) uses network namespaces when they can be created, else loopback addresses. */
  network?: NetworkMode | 'auto';
  /** DNS port on the gateway; 53 (default) is what resolv.conf can name. */
  dnsPort?: number;
  clusterDomain?: string;
  nodeName?: string;
  timing?: Partial<KubeletTiming>;
  baseEnv?: Record<string, string>;
  log?: (message: string) => void;
  /** The kubelet's HTTPS endpoint (serving certificate, client CA); `false` serves none. */
  kubeletServer?: KubeletOptions['server'];
  /**
   * Run the endpoints controller (default true). Off on a cluster whose controller manager already runs one (a real
   * kube-apiserver's kube-controller-manager): two controllers would fight over every Endpoints object.
   */
  endpointsController?: boolean;
  /** Give pods a way to the API server (an endpoint on the pod network, service variables, service-account files). */
  apiEndpoint?: Omit<ApiEndpointOptions, 'host'> & { caCert: string };
}

export interface SandboxNode {
  readonly kubelet: Kubelet;
  readonly dns: ClusterDns;
  readonly network: PodNetwork;
  /** A `lookup` for host-side HTTP clients (node:net / undici) that resolves cluster names. */
  readonly lookup: ReturnType<typeof createClusterLookup>;
  stop(): Promise<void>;
}

export async function startSandboxNode(options: SandboxNodeOptions): Promise<SandboxNode> {
  const source = options.connection ?? (options.url === undefined ? undefined : { server: options.url });
  const client = options.client ?? (source === undefined ? undefined : await createKubeClient(source, { userAgent: 'rayjob-sandbox-node' }));
  if (client === undefined) throw new Error('startSandboxNode: pass `url` (the API server URL), `connection` or `client`');
  const ownsClient = options.client === undefined;
  const mode = options.network ?? 'auto';
  const useNetns = mode === 'netns' || (mode === 'auto' && await netnsSupported());
  const network = useNetns ? await startNetnsNetwork() : startLoopbackNetwork();
  const clusterDomain = options.clusterDomain ?? 'cluster.local';
  let dns: ClusterDns | undefined;
  let endpoints: EndpointsController | undefined;
  let apiEndpoint: ApiEndpoint | undefined;
  try {
    if (options.apiEndpoint !== undefined) apiEndpoint = await startApiEndpoint({ ...options.apiEndpoint, host: network.gatewayIP });
    dns = await startClusterDns({
      client, host: network.gatewayIP, port: options.dnsPort ?? 53, clusterDomain,
      // kubernetes.default.svc leads pods to the API endpoint (which listens on 443, the Service's port, when it can).
      ...(apiEndpoint !== undefined && { serviceAddresses: { 'default/kubernetes': [apiEndpoint.host] } }),
    });
    if (options.endpointsController !== false) endpoints = startEndpointsController(client, options.log);
    const kubelet = await startKubelet({
      client, dir: options.dir, images: options.images, network, clusterDomain,
      nameserver: dns.host, nodeName: options.nodeName, timing: options.timing, baseEnv: options.baseEnv, log: options.log,
      ...(options.kubeletServer !== undefined && { server: options.kubeletServer }),
      ...(apiEndpoint !== undefined && options.apiEndpoint !== undefined && { apiAccess: { env: apiEndpoint.env, caCert: options.apiEndpoint.caCert } }),
    });
    const podApi = apiEndpoint;
    const started = dns;
    const controller = endpoints;
    return {
      kubelet,
      dns: started,
      network,
      lookup: createClusterLookup({ host: started.host, port: started.port, clusterDomain }),
      async stop() {
        await kubelet.stop();
        await podApi?.stop();
        await controller?.stop();
        await started.stop();
        await network.stop();
        // The last sandbox on the machine takes away the mount points it had to create on the host.
        if (!anyLiveClaim()) removeCreatedMountPoints();
        if (ownsClient) await client.close();
      },
    };
  } catch (error) {
    await apiEndpoint?.stop();
    await endpoints?.stop();
    await dns?.stop();
    await network.stop();
    if (ownsClient) await client.close();
    throw error;
  }
}
