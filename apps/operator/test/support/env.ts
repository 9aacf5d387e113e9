// One sandbox per test file: API server with the ray.io CRDs, Job controller, kubelet running pods as processes
// (Ray images -> the Ray emulator, our submitter image -> our submitter's source), the test-only RayCluster
// stand-in, and the operator under test in this process (cluster DNS through the sandbox's lookup).
import { createLogger, type ConnectionSource } from '@rayjob/kube-runtime';
import { join } from 'node:path';
import { startSandbox, type AuditEvent, type Sandbox } from '@rayjob/sandbox';
import { loadConfig } from '../../src/config/config.ts';
import { RAY_CRDS, sandboxImages } from './sandbox-images.ts';
import { rayJobController, type RayJobControllerHandle } from '../../src/controllers/rayjob/controller.ts';
import { startOperator, type RunningOperator } from '../../src/operator.ts';
import { api, eventually, type Json } from './api.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { operatorNamespace } from './least-privilege.ts';
import { discoverPlurals, saveOperatorCalls } from './operator-calls.ts';
import { startRayClusterStandIn, type StandIn } from './raycluster-standin.ts';

export const SUBMITTER_IMAGE = 'rayjob.test/submitter:dev';
export const RAY_IMAGE = 'rayproject/ray:2.58.0';

export interface Env {
  sandbox: Sandbox;
  url: string;
  standIn: StandIn;
  operator: RunningOperator;
  rayjob: RayJobControllerHandle;
  /** The API server's audit log: every request, the operator's among them (user agent rayjob-operator, see
   * operator-calls.ts; what it needed is recorded for the least-privilege check when the env stops). */
  audit: AuditEvent[];
  /** With `faultProxy`: the proxy every operator replica talks through. */
  proxy?: FaultProxy;
  /** Starts another operator replica (same flags unless given). */
  startOperator(argv?: string[], identity?: string): Promise<{ operator: RunningOperator; rayjob: RayJobControllerHandle }>;
  stop(): Promise<void>;
}

/** Short timers (tests), KubeRay's otherwise. */
export const testEnvVars = {
  RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS: '60',
};

export const baseArgv = ['--enable-leader-election=false', '--metrics-addr=0', '--health-probe-bind-address=0', '--submitter-image', SUBMITTER_IMAGE];

export interface EnvOptions {
  /** Lease timings for replicas started with --enable-leader-election. */
  leaderElection?: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number };
  identity?: string;
  /** Operators reach the API server through a fault proxy (env.proxy). */
  faultProxy?: boolean;
  /** Environment variables the operators read (KubeRay's), beside testEnvVars. */
  envVars?: Record<string, string>;
  /** How the operators reach the API server (default: the sandbox's kubeconfig), made once the sandbox is up. */
  connection?: (sandbox: Sandbox) => Promise<ConnectionSource>;
}

export async function startEnv(argv: string[] = [], options: EnvOptions = {}): Promise<Env> {
  const audit: AuditEvent[] = [];
  const sandbox = await startSandbox({ crds: RAY_CRDS, images: sandboxImages({ submitterImages: [SUBMITTER_IMAGE] }), apiServer: { audit: (e) => audit.push(e) } });
  // The operator's own namespace, as installed by deploy/ (its Lease lives there with --enable-leader-election).
  await api(sandbox.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: operatorNamespace } });
  const standIn = startRayClusterStandIn(sandbox.url);
  const proxy = options.faultProxy ? await startFaultProxy(sandbox.kubeconfigPath, join(sandbox.dir, 'operator-kubeconfig')) : undefined;
  const connection = options.connection ? await options.connection(sandbox) : undefined;
  const launch = async (args: string[], identity?: string) => {
    const loaded = loadConfig([...baseArgv, '--kubeconfig', proxy?.kubeconfigPath ?? sandbox.kubeconfigPath, ...args], { ...testEnvVars, ...options.envVars });
    if (loaded.ok !== true) throw new Error(`bad test flags: ${JSON.stringify(loaded)}`);
    const registration = rayJobController({ runningPollSeconds: 30 });
    let handle: RayJobControllerHandle | undefined;
    const operator = await startOperator({
      config: loaded.config,
      controllers: [{ name: registration.name, setup: (ctx) => {
        const h = registration.setup(ctx);
        handle = h;
        return h;
      } }],
      ...(sandbox.node && { dashboardLookup: sandbox.node.lookup }),
      ...(connection && { connection }),
      ...(identity && { identity }),
      ...(options.leaderElection && { leaderElection: options.leaderElection }),
      logger: silentTestLogger(),
    });
    if (!handle) throw new Error('the rayjob controller was not set up');
    return { operator, rayjob: handle };
  };
  const first = await launch(argv, options.identity);
  const extra: RunningOperator[] = [];
  return {
    sandbox,
    url: sandbox.url,
    standIn,
    operator: first.operator,
    rayjob: first.rayjob,
    audit,
    ...(proxy && { proxy }),
    async startOperator(args = argv, identity) {
      const started = await launch(args, identity);
      extra.push(started.operator);
      return started;
    },
    async stop() {
      for (const o of extra) await o.stop();
      await first.operator.stop();
      await proxy?.close();
      await standIn.stop();
      const plurals = await discoverPlurals(sandbox.url);
      await sandbox.stop();
      saveOperatorCalls(audit, plurals);
    },
  };
}

/** Quiet unless OPERATOR_TEST_LOG=info (or debug) asks for the operator's JSON logs. */
const silentTestLogger = () => createLogger({ level: process.env.OPERATOR_TEST_LOG ?? 'silent' });

/** A RayJob manifest with a one-container head running the Ray image; `workers`: one worker group (1 of 1..2). */
export function rayJobManifest(name: string, spec: Json = {}, workers = false): Json {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name, namespace: 'default' },
    spec: {
      entrypoint: 'echo hello; sleep 1; echo done',
      rayClusterSpec: {
        rayVersion: '2.58.0',
        headGroupSpec: {
          rayStartParams: {},
          template: { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, ports: [{ name: 'dashboard', containerPort: 8265 }] }] } },
        },
        ...(workers && {
          workerGroupSpecs: [{ groupName: 'small', replicas: 1, minReplicas: 1, maxReplicas: 2, rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE }] } } }],
        }),
      },
      ...spec,
    },
  };
}

export async function createRayJob(url: string, manifest: Json): Promise<Json> {
  const r = await api(url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', manifest);
  if (r.status !== 201) throw new Error(`create RayJob: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const getRayJob = async (url: string, name: string): Promise<Json> => (await api(url, 'GET', `/apis/ray.io/v1/namespaces/default/rayjobs/${name}`)).body;

/** Waits for the RayJob's deployment status, failing fast when it lands in another terminal one. */
export async function waitForDeployment(url: string, name: string, want: string, ms = 60_000): Promise<Json> {
  return eventually(`RayJob ${name} to be ${want}`, async () => {
    const job = await getRayJob(url, name);
    const got = job?.status?.jobDeploymentStatus;
    if (got === want) return job;
    if (['Complete', 'Failed', 'ValidationFailed'].includes(got) && got !== want) throw new Error(`RayJob ${name} is ${got}: ${JSON.stringify(job.status)}`);
    return undefined;
  }, ms);
}

export async function listEvents(url: string, name: string): Promise<Json[]> {
  const r = await api(url, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events');
  return (r.body?.items ?? []).filter((e: Json) => e.regarding?.name === name);
}
