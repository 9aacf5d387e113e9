// Test harness for the node components: a real API server on 127.0.0.1, a kube client, and the
// sandbox node (network, DNS, endpoints controller, kubelet) plus optionally the Job controller.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer } from '../../src/apiserver/server.ts';
import type { ApiServer } from '../../src/apiserver/server.ts';
import { startJobController } from '../../src/job-controller/controller.ts';
import type { JobController } from '../../src/job-controller/controller.ts';
import { createKubeClient, describeError, resources, type KubeClient } from '@rayjob/kube-runtime';
import { eventually } from '@rayjob/test-support';
import type { Pod } from '../../src/kube-objects/types.ts';
import type { ImageCatalog } from '../../src/kubelet/image-program.ts';
import type { KubeletTiming } from '../../src/kubelet/kubelet-config.ts';
import { startSandboxNode } from '../../src/kubelet/sandbox-node.ts';
import type { SandboxNode } from '../../src/kubelet/sandbox-node.ts';

export const testImages: ImageCatalog = {
  busybox: { entrypoint: [], cmd: ['sh'] },
  node: { entrypoint: [process.execPath] },
  python: { entrypoint: ['python3'] },
};

export const fastKubelet: Partial<KubeletTiming> = { restartBackoffBaseMs: 100, restartBackoffMaxMs: 400, probeTimeScale: 0.05, imagePullBackoffMs: 100, configRetryMs: 100 };

export interface Harness {
  api: ApiServer;
  client: KubeClient;
  node: SandboxNode;
  jobs: JobController | undefined;
  dir: string;
  stop(): Promise<void>;
}

export async function startHarness(opts: { jobController?: boolean; images?: ImageCatalog; backoffBaseMs?: number; network?: 'netns' | 'loopback'; timing?: Partial<KubeletTiming>; nodeClient?: (client: KubeClient) => KubeClient } = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'rayjob-node-test-'));
  const api = await startApiServer({ dir, podGracefulDeletion: true });
  const client = await createKubeClient({ server: api.url });
  const node = await startSandboxNode({ client: opts.nodeClient?.(client) ?? client, dir, images: opts.images ?? testImages, timing: { ...fastKubelet, ...opts.timing }, network: opts.network ?? 'auto', log: () => {} });
  const jobs = opts.jobController === true ? startJobController({ client, timing: { backoffBaseMs: opts.backoffBaseMs ?? 100, backoffMaxMs: 1000 }, onError: () => {} }) : undefined;
  return {
    api, client, node, jobs, dir,
    async stop() {
      await jobs?.stop();
      await node.stop();
      await api.stop();
      await client.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. The pause grows from
 * 25 ms to 250 ms: these waits are for processes starting and ending (seconds), and a fixed 25 ms poll cost CPU
 * that grew with wall time on a loaded machine; no test here asserts how soon a wait ends, only bounds around it.
 */
export const waitFor = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> =>
  eventually(probe, { what, withinMs: timeoutMs, everyMs: 25, maxEveryMs: 250 });

export async function getPod(client: KubeClient, name: string, namespace = 'default'): Promise<Pod | undefined> {
  const result = await client.get<Pod>(resources.pods, { namespace, name });
  return result.ok ? result.value : undefined;
}

export async function createPod(client: KubeClient, pod: Partial<Pod> & { metadata: Pod['metadata']; spec: Pod['spec'] }): Promise<Pod> {
  const result = await client.create<Pod>(resources.pods, { apiVersion: 'v1', kind: 'Pod', ...pod }, { namespace: pod.metadata.namespace ?? 'default' });
  if (!result.ok) throw new Error(`create pod: ${describeError(result.error)}`);
  return result.value;
}

export async function waitForPhase(client: KubeClient, name: string, phases: string[], namespace = 'default', timeoutMs = 20_000): Promise<Pod> {
  return waitFor(`pod ${name} in ${phases.join('/')}`, async () => {
    const pod = await getPod(client, name, namespace);
    return pod !== undefined && phases.includes(pod.status?.phase ?? '') ? pod : undefined;
  }, timeoutMs);
}
