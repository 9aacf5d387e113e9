// startSandbox: the API server plus the node-side components (kubelet, Job controller, DNS...), all in
// one temp folder. Components are started in order after the API server and stopped in reverse.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from './apiserver/server.ts';
import { startJobController, type JobController, type JobControllerOptions } from './job-controller/index.ts';
import { createKubeClient } from './kube-client/rest-client.ts';
import type { ImageCatalog } from './kubelet/image-program.ts';
import { startSandboxNode, type SandboxNode, type SandboxNodeOptions } from './kubelet/sandbox-node.ts';

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
  node?: Partial<Omit<SandboxNodeOptions, 'url' | 'client' | 'dir' | 'images'>>;
  jobControllerOptions?: Partial<Omit<JobControllerOptions, 'client'>>;
}

export interface Sandbox {
  url: string;
  kubeconfigPath: string;
  dir: string;
  apiServer: ApiServer;
  /** The node (kubelet, DNS, network, host-side lookup) when `kubelet` is on. */
  node?: SandboxNode;
  jobController?: JobController;
  /** Started extra components by name. */
  components: Record<string, StartedComponent>;
  stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rayjob-sandbox-')));
  const kubelet = options.kubelet ?? true;
  const jobController = options.jobController ?? true;
  const apiServer = await startApiServer({ https: true, ...options.apiServer, dir, ...(options.crds && { crds: options.crds }), podGracefulDeletion: kubelet });
  const started: Array<[string, StartedComponent]> = [];
  const stopAll = async (): Promise<void> => {
    for (const [, c] of [...started].reverse()) await c.stop();
    await apiServer.stop();
    if (ownsDir) await rm(dir, { recursive: true, force: true });
  };
  let node: SandboxNode | undefined;
  let controller: JobController | undefined;
  try {
    if (kubelet) {
      node = await startSandboxNode({ ...options.node, url: apiServer.url, dir, images: options.images ?? {} });
      started.push(['node', node]);
    }
    if (jobController) {
      controller = startJobController({ ...options.jobControllerOptions, client: createKubeClient({ url: apiServer.url }) });
      started.push(['jobController', controller]);
      await controller.synced;
    }
    for (const c of options.components ?? []) {
      started.push([c.name, await c.start({ apiServer, url: apiServer.url, dir, kubeconfigPath: apiServer.kubeconfigPath, images: options.images ?? {} })]);
    }
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
    ...(node && { node }),
    ...(controller && { jobController: controller }),
    components: Object.fromEntries(started.filter(([name]) => name !== 'node' && name !== 'jobController')),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopAll();
    },
  };
}
