// startSandbox: the API server plus the node-side components (kubelet, Job controller, DNS...), all in
// one temp folder. Components are started in order after the API server and stopped in reverse.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from './apiserver/server.ts';

export interface SandboxComponentContext {
  apiServer: ApiServer;
  url: string;
  dir: string;
  kubeconfigPath: string;
  images: Record<string, unknown>;
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
  images?: Record<string, unknown>;
  kubelet?: boolean;
  jobController?: boolean;
  /** CRD YAML documents or file paths installed at start. */
  crds?: string[];
  /** Node-side components; default: the ones enabled by `kubelet` / `jobController`. */
  components?: SandboxComponent[];
  apiServer?: Omit<ApiServerOptions, 'dir' | 'crds'>;
}

export interface Sandbox {
  url: string;
  kubeconfigPath: string;
  dir: string;
  apiServer: ApiServer;
  /** Started components by name. */
  components: Record<string, StartedComponent>;
  stop(): Promise<void>;
}

/** Components registered by the node side (src/kubelet, src/job-controller) via registerDefaultComponent. */
const defaults: Array<{ component: SandboxComponent; enabledBy: 'kubelet' | 'jobController' | 'always' }> = [];

export function registerDefaultComponent(component: SandboxComponent, enabledBy: 'kubelet' | 'jobController' | 'always'): void {
  if (!defaults.some((d) => d.component.name === component.name)) defaults.push({ component, enabledBy });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rayjob-sandbox-')));
  const kubelet = options.kubelet ?? true;
  const jobController = options.jobController ?? true;
  const apiServer = await startApiServer({ ...options.apiServer, dir, ...(options.crds && { crds: options.crds }), podGracefulDeletion: kubelet });
  const chosen =
    options.components ??
    defaults.filter((d) => d.enabledBy === 'always' || (d.enabledBy === 'kubelet' && kubelet) || (d.enabledBy === 'jobController' && jobController)).map((d) => d.component);
  const started: Array<[string, StartedComponent]> = [];
  const stopAll = async (): Promise<void> => {
    for (const [, c] of [...started].reverse()) await c.stop();
    await apiServer.stop();
    if (ownsDir) await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const c of chosen) {
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
    components: Object.fromEntries(started),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopAll();
    },
  };
}
