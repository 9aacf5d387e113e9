// A sandbox running our RayCluster controller (no stand-in, no KubeRay): Ray images are the Ray emulator,
// whose `ray start --address` registers worker nodes with the head. Probe timing is scaled down (KubeRay's
// 10 s readiness delay becomes 2 s); the workers' wait-gcs-ready loop keeps its real 5 s period.
import { createLogger } from '@rayjob/kube-runtime';
import { startSandbox, type AuditEvent, type ImageProgram, type Sandbox } from '@rayjob/sandbox';
import { loadConfig } from '../../src/config/config.ts';
import { RAY_CRDS, sandboxImages } from './sandbox-images.ts';
import { rayClusterController, type RayClusterControllerHandle } from '../../src/controllers/raycluster/controller.ts';
import { rayJobController } from '../../src/controllers/rayjob/controller.ts';
import type { ControllerRegistration } from '../../src/controllers/types.ts';
import { startOperator, type RunningOperator } from '../../src/operator.ts';
import type { CacheTransforms } from '../../src/runtime/cached-fields.ts';
import { afterAll, beforeAll } from 'vitest';
import { api, eventually, type Json } from './api.ts';
import { baseArgv, SUBMITTER_IMAGE } from './env.ts';
import { discoverPlurals, saveOperatorCalls } from './operator-calls.ts';

export { RAY_IMAGE, SUBMITTER_IMAGE } from './env.ts';

export interface RayClusterEnv {
  sandbox: Sandbox;
  url: string;
  operator: RunningOperator;
  controller: RayClusterControllerHandle;
  /** Every API call so far (the operator's and the pods'), as the API server audited it. */
  audit: readonly AuditEvent[];
  /** An operator restart, in two steps (the cluster changes meanwhile): its in-memory state is lost. */
  stopOperator(): Promise<void>;
  startOperator(): Promise<void>;
  stop(): Promise<void>;
}

export interface RayClusterEnvOptions {
  /** Also run the RayJob controller (end-to-end RayJobs on our RayCluster controller). */
  withRayJobs?: boolean;
  extraImages?: Record<string, ImageProgram>;
  argv?: string[];
  /** The operator's cache transforms (cached-fields.test.ts records reads through them). */
  cacheTransforms?: CacheTransforms;
  /** Ray images run the provisioned real Ray (tools/ray/provision.sh) instead of the emulator. */
  realRay?: boolean;
}

export async function startRayClusterEnv(options: RayClusterEnvOptions = {}): Promise<RayClusterEnv> {
  // The operator's calls are recorded for the least-privilege check (operator-calls.ts).
  const audit: AuditEvent[] = [];
  const sandbox = await startSandbox({
    apiServer: { audit: (e) => audit.push(e) },
    crds: RAY_CRDS,
    images: { ...sandboxImages({ submitterImages: [SUBMITTER_IMAGE], ...(options.realRay && { realRay: true }) }), ...(options.extraImages ?? {}) },
    // Real Ray keeps KubeRay's probe timing: a head whose agent takes minutes on a loaded machine would otherwise
    // be killed by a scaled-down liveness probe (30 s + 120 x 5 s becomes ~2 minutes at 0.2) before it ever serves.
    node: { timing: { probeTimeScale: options.realRay ? 1 : 0.2 } },
  });
  const loaded = loadConfig(
    [...baseArgv, '--kubeconfig', sandbox.kubeconfigPath, ...(options.argv ?? [])],
    {},
  );
  if (loaded.ok !== true) throw new Error(`bad test flags: ${JSON.stringify(loaded)}`);
  const launch = async (): Promise<{ operator: RunningOperator; handle: RayClusterControllerHandle }> => {
    const registration = rayClusterController();
    let handle: RayClusterControllerHandle | undefined;
    const controllers: ControllerRegistration[] = [
      {
        name: registration.name,
        setup: (ctx) => {
          const started = registration.setup(ctx) as RayClusterControllerHandle;
          handle = started;
          return started;
        },
      },
    ];
    if (options.withRayJobs) controllers.push(rayJobController({ runningPollSeconds: 30 }));
    const operator = await startOperator({
      config: loaded.config,
      controllers,
      ...(options.cacheTransforms && { cacheTransforms: options.cacheTransforms }),
      ...(sandbox.node && { dashboardLookup: sandbox.node.lookup }),
      logger: createLogger({ level: process.env.OPERATOR_TEST_LOG ?? 'silent' }),
    });
    if (!handle) throw new Error('the raycluster controller was not set up');
    return { operator, handle };
  };
  let running = await launch();
  let stopped = false;
  return {
    sandbox,
    url: sandbox.url,
    get operator() { return running.operator; },
    get controller() { return running.handle; },
    audit,
    async stopOperator() {
      if (!stopped) await running.operator.stop();
      stopped = true;
    },
    async startOperator() {
      if (!stopped) return;
      running = await launch();
      stopped = false;
    },
    async stop() {
      if (!stopped) await running.operator.stop();
      const plurals = await discoverPlurals(sandbox.url);
      await sandbox.stop();
      saveOperatorCalls(audit, plurals);
    },
  };
}

/**
 * The test file's environment: started before its tests (2 min bound), stopped after them (1 min). It reads
 * through to the running environment, so the file's tests use it as a plain RayClusterEnv.
 */
export function useRayClusterEnv(options: RayClusterEnvOptions = {}): RayClusterEnv {
  let current: RayClusterEnv | undefined;
  beforeAll(async () => {
    current = await startRayClusterEnv(options);
  }, 120_000);
  afterAll(async () => {
    await current?.stop();
  }, 60_000);
  return new Proxy({} as RayClusterEnv, {
    get: (_, key) => {
      if (current === undefined) throw new Error('the environment runs only while the file\'s tests do');
      return Reflect.get(current, key);
    },
  });
}

export const clusterPath = (name: string, ns = 'default') => `/apis/ray.io/v1/namespaces/${ns}/rayclusters/${name}`;

export async function getCluster(url: string, name: string): Promise<Json> {
  return (await api(url, 'GET', clusterPath(name))).body;
}

export async function clusterPods(url: string, name: string, extraSelector = ''): Promise<Json[]> {
  const selector = encodeURIComponent(`ray.io/cluster=${name}${extraSelector ? `,${extraSelector}` : ''}`);
  return (await api(url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=${selector}`)).body?.items ?? [];
}

export async function clusterEvents(url: string, name: string): Promise<Json[]> {
  const items: Json[] = (await api(url, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events')).body?.items ?? [];
  return items.filter((e) => e.regarding?.kind === 'RayCluster' && e.regarding?.name === name);
}

export async function waitForState(url: string, name: string, state: string, ms = 90_000): Promise<Json> {
  return eventually(`RayCluster ${name} state ${state}`, async () => {
    const c = await getCluster(url, name);
    return c?.status?.state === state ? c : undefined;
  }, ms, 200);
}

export const condition = (cluster: Json, type: string): Json => (cluster?.status?.conditions ?? []).find((c: Json) => c.type === type);

export async function patchCluster(url: string, name: string, patch: Json): Promise<void> {
  const res = await api(url, 'PATCH', clusterPath(name), patch, 'application/merge-patch+json');
  if (res.status !== 200) throw new Error(`patch ${name}: ${res.status} ${JSON.stringify(res.body)}`);
}
