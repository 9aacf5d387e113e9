import {
  attachOnlyMarkKey,
  decide,
  defaultDecisionSettings,
  formatKubeTime,
  RayJobSchema,
  type Decision,
  type DecisionInput,
  type DecisionSettings,
  type K8sJob,
  type Pod,
  type RayCluster,
  type RayJob,
  type RayJobInput,
  type Service,
  type SubmissionMode,
} from '../../src/index.ts';

/** Test time starts here; `at(s)` is s seconds later. */
export const T0 = new Date('2026-12-02T10:00:00Z');
export const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);
export const iso = (seconds: number): string => formatKubeTime(at(seconds));
export const ms = (seconds: number): number => at(seconds).getTime();

export const NAME = 'rayjob-sample';
export const NS = 'default';
export const JOB_ID = 'rayjob-sample-b9q4z';
export const CLUSTER = 'rayjob-sample-x7k2p';
export const DASHBOARD = `${CLUSTER}-head-svc.${NS}.svc.cluster.local:8265`;
export const DRIVER_NODE = 'a1b2c3d4e5f6';

/** A deterministic [0, 1) source (an LCG), so generated names are reproducible. */
export function seededRandom(seed = 42): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const clusterSpec = {
  rayVersion: '2.55.1',
  headGroupSpec: {
    rayStartParams: {},
    template: {
      spec: {
        containers: [{ name: 'ray-head', image: 'rayproject/ray:2.55.1', ports: [{ name: 'dashboard', containerPort: 8265 }] }],
      },
    },
  },
  workerGroupSpecs: [
    {
      groupName: 'small-group',
      replicas: 1,
      minReplicas: 1,
      maxReplicas: 1,
      rayStartParams: {},
      template: { spec: { containers: [{ name: 'ray-worker', image: 'rayproject/ray:2.55.1' }] } },
    },
  ],
};

type DeepPartialRayJob = { metadata?: Partial<RayJobInput['metadata']>; spec?: Partial<RayJobInput['spec']> & Record<string, unknown>; status?: Record<string, unknown> };

export function makeRayJob(overrides: DeepPartialRayJob = {}): RayJob {
  return RayJobSchema.parse({
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: {
      name: NAME,
      namespace: NS,
      uid: 'uid-1',
      generation: 1,
      finalizers: ['ray.io/rayjob-finalizer'],
      ...overrides.metadata,
    },
    spec: { entrypoint: 'python /home/ray/samples/sample_code.py', rayClusterSpec: clusterSpec, ...overrides.spec },
    status: overrides.status,
  });
}

/** A RayJob in the given deployment state with the names of an attempt persisted. */
export function inState(state: string, mode: SubmissionMode = 'K8sJobMode', status: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): RayJob {
  return makeRayJob({
    spec: { submissionMode: mode, ...spec },
    status: {
      jobDeploymentStatus: state,
      jobId: JOB_ID,
      rayClusterName: CLUSTER,
      dashboardURL: DASHBOARD,
      startTime: iso(0),
      jobStatus: state === 'Running' ? 'RUNNING' : '',
      failed: 0,
      succeeded: 0,
      observedGeneration: 1,
      ...status,
    },
  });
}

export function makeCluster(state: string | undefined = 'ready', extra: Partial<RayCluster> = {}): RayCluster {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name: CLUSTER, namespace: NS, uid: 'cluster-uid' },
    spec: structuredClone(clusterSpec) as RayCluster['spec'],
    status: state ? { state } : undefined,
    ...extra,
  } as RayCluster;
}

export function clusterHeadService(): Service {
  return {
    metadata: { name: `${CLUSTER}-head-svc`, namespace: NS },
    spec: { clusterIP: 'None', ports: [{ name: 'dashboard', port: 8265 }, { name: 'gcs-server', port: 6379 }], selector: { 'ray.io/cluster': CLUSTER } },
  };
}

export function rayJobHeadService(cluster = CLUSTER): Service {
  return { metadata: { name: `${NAME}-head-svc`, namespace: NS }, spec: { selector: { 'ray.io/cluster': cluster } } };
}

/** The submitter Job with the given finished condition (Complete/Failed at `finishedAt` seconds), if any. */
export function submitterJob(condition?: { type: 'Complete' | 'Failed'; at: number; reason?: string; message?: string }): K8sJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: NAME, namespace: NS },
    spec: { backoffLimit: 2, template: { spec: { containers: [{ name: 'ray-job-submitter' }] } } },
    status: condition
      ? { conditions: [{ type: condition.type, status: 'True', lastTransitionTime: iso(condition.at), reason: condition.reason, message: condition.message }] }
      : { active: 1 },
  };
}

/** A submitter pod whose container 0 terminated with a termination message. */
export function submitterPod(terminationMessage: string | undefined, finishedAt: number, exitCode = 0): Pod {
  return {
    metadata: { name: `${NAME}-abcde`, namespace: NS },
    spec: { containers: [{ name: 'ray-job-submitter' }] },
    status: { containerStatuses: [{ name: 'ray-job-submitter', restartCount: 0, state: { terminated: { exitCode, message: terminationMessage, finishedAt: iso(finishedAt) } } }] },
  } as Pod;
}

/** The head pod, with the sidecar container in the given state (SidecarMode). */
export function headPod(sidecar?: { exitCode?: number; finishedAt?: number; reason?: string; restartCount?: number; lastTerminated?: boolean; message?: string }): Pod {
  const state = sidecar?.exitCode === undefined ? { running: { startedAt: iso(1) } } : { terminated: { exitCode: sidecar.exitCode, reason: sidecar.reason ?? 'Error', finishedAt: iso(sidecar.finishedAt ?? 0), message: sidecar.message } };
  return {
    metadata: { name: `${CLUSTER}-head`, namespace: NS, labels: { 'ray.io/cluster': CLUSTER, 'ray.io/node-type': 'head' } },
    spec: { containers: [{ name: 'ray-head' }, { name: 'ray-job-submitter' }] },
    status: {
      containerStatuses: [
        { name: 'ray-head', restartCount: 0, state: { running: {} } },
        { name: 'ray-job-submitter', restartCount: sidecar?.restartCount ?? 0, state, ...(sidecar?.lastTerminated ? { lastState: { terminated: { exitCode: 1, finishedAt: iso(0) } } } : {}) },
      ],
    },
  } as Pod;
}

export const found = (status: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'found', info: { status, message: `Job is ${status.toLowerCase()}.`, startTime: ms(5), driverNodeId: DRIVER_NODE, ...extra } }) as DecisionInput['dashboard'];

export const testSettings: DecisionSettings = { ...defaultDecisionSettings };

/**
 * The attempt's attach-only mark is taken as already written (addition H), so the other tables need not list
 * its one-off action; the mark's own tests pass `attachOnlyMarked: undefined`.
 */
export const MARKED_MEMORY = { attachOnlyMarked: { key: attachOnlyMarkKey(CLUSTER, JOB_ID) } };

export function makeInput(partial: Partial<DecisionInput> & { rayJob: RayJob }): DecisionInput {
  return {
    dashboard: { kind: 'not-queried' },
    driverNode: { kind: 'not-checked' },
    settings: testSettings,
    now: at(60),
    random: seededRandom(),
    submitterPods: [],
    headPods: [],
    ...partial,
    memory: { ...MARKED_MEMORY, ...(partial.memory ?? {}) },
  };
}

/** A running-cluster observation: the cluster, its head service and the RayJob head Service exist. */
export function healthyCluster(): Pick<DecisionInput, 'cluster' | 'clusterHeadService' | 'rayJobHeadService'> {
  return { cluster: makeCluster('ready'), clusterHeadService: clusterHeadService(), rayJobHeadService: rayJobHeadService() };
}

/**
 * One decision on a RayJob whose status already carries the conditions and the RayCluster status copy this very
 * observation gives (a settled RayJob): the tables then see a write, an action or an event only for what else changed. The conditions' own
 * changes and events are tested on `decide(makeInput(...))` directly (conditions.test.ts).
 */
export const run = (partial: Partial<DecisionInput> & { rayJob: RayJob }): Decision => decide(makeInput(withSettledConditions(partial)));

export function withSettledConditions<T extends { rayJob: RayJob }>(partial: T): T {
  const first = decide(makeInput(partial));
  const { conditions, rayClusterStatus } = first.status;
  if (!conditions) return partial;
  const settled = { conditions, ...(rayClusterStatus && { rayClusterStatus }) };
  const rayJob = { ...partial.rayJob, status: { ...(partial.rayJob.status ?? { succeeded: 0, failed: 0 }), ...settled } };
  return { ...partial, rayJob };
}

export const actionTypes = (d: Decision): string[] => d.actions.map((a) => (a.type === 'emitEvent' ? `event:${a.event.reason}` : a.type));
