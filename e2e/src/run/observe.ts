// One look at a scenario's RayJob and everything around it, the way a person would look with kubectl:
// the RayJob's status, its submitter (Job pod or sidecar container), its RayCluster and pods, and the Ray
// job itself through the dashboard (progress from the logs, how many submissions the head knows).
import type { Driver, KubeObject } from '../drivers/types.ts';

export interface Observation {
  atMs: number;
  deploymentStatus: string;
  jobStatus: string;
  reason: string;
  message: string;
  failed: number;
  succeeded: number;
  jobId: string;
  cluster: string;
  clusterExists: boolean;
  headPod?: string;
  headPhase?: string;
  workersRunning: number;
  submitterPod?: string;
  /** e.g. `Running`, `exited 0`, `exited 143`, `none`. */
  submitter: string;
  submitterExited: boolean;
  /** Highest `step i/N` the job printed, or 0. */
  progress: number;
  progressOf: number;
  /** Submissions the head's dashboard lists (undefined: the dashboard did not answer). */
  submissions?: number;
  /** The Ray job's logs as last read (undefined: not read). */
  logs?: string;
  /** Ray's status of the job (undefined: the dashboard did not answer). */
  rayStatus?: string;
  /** The head answered 404 for the job: no such job on the cluster's current head (a new head after a loss). */
  rayJobNotFound?: boolean;
  /** Names of every submitter pod present now. */
  submitterPods: string[];
}

type PodStatus = {
  phase?: string;
  containerStatuses?: Array<{ name: string; state?: { running?: unknown; terminated?: { exitCode?: number } }; lastState?: { terminated?: { exitCode?: number } } }>;
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function containerState(pod: KubeObject, container?: string): { text: string; exited: boolean } {
  const status = pod.status as PodStatus | undefined;
  const statuses = status?.containerStatuses ?? [];
  const cs = container === undefined ? statuses[0] : statuses.find((c) => c.name === container);
  if (cs?.state?.terminated) return { text: `exited ${cs.state.terminated.exitCode ?? '?'}`, exited: true };
  if (cs?.lastState?.terminated && !cs.state?.running) return { text: `exited ${cs.lastState.terminated.exitCode ?? '?'}`, exited: true };
  if (pod.metadata.deletionTimestamp) return { text: 'Terminating', exited: false };
  return { text: status?.phase ?? 'Pending', exited: status?.phase === 'Succeeded' || status?.phase === 'Failed' };
}

function lastStep(logs: string): { step: number; of: number } {
  let step = 0;
  let of = 0;
  for (const m of logs.matchAll(/step (\d+)\/(\d+)/g)) {
    step = Math.max(step, Number(m[1]));
    of = Number(m[2]);
  }
  return { step, of };
}

export interface ObserveOptions {
  /** Read the job's logs for its progress (default true); a watcher with no use for progress saves the read. */
  logs?: boolean;
}

const nodeType = (p: KubeObject) => p.metadata.labels?.['ray.io/node-type'];

/** The RayCluster's pods: its head (a live one before a terminating one) and how many workers run. */
function clusterPods(pods: KubeObject[], clusterName: string): { head: KubeObject | undefined; workersRunning: number } {
  const ofCluster = pods.filter((p) => clusterName !== '' && p.metadata.labels?.['ray.io/cluster'] === clusterName);
  const head = ofCluster.find((p) => nodeType(p) === 'head' && !p.metadata.deletionTimestamp)
    ?? ofCluster.find((p) => nodeType(p) === 'head');
  const workersRunning = ofCluster.filter((p) => nodeType(p) === 'worker' && (p.status as PodStatus | undefined)?.phase === 'Running').length;
  return { head, workersRunning };
}

/** The submitter: the head pod's sidecar container in SidecarMode, the Job's pod (a live one first) in K8sJobMode. */
function findSubmitter(mode: string, head: KubeObject | undefined, pods: KubeObject[], name: string) {
  let submitterPod: KubeObject | undefined;
  const submitterPods: string[] = [];
  let submitter = { text: 'none', exited: false };
  if (mode === 'SidecarMode') {
    if (head) submitter = containerState(head, 'ray-job-submitter');
    submitterPod = head;
  } else if (mode === 'K8sJobMode') {
    const candidates = pods.filter((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name || p.metadata.labels?.['job-name'] === name);
    submitterPods.push(...candidates.map((p) => p.metadata.name));
    submitterPod = candidates.find((p) => !p.metadata.deletionTimestamp) ?? candidates[0];
    if (submitterPod) submitter = containerState(submitterPod);
  }
  return { submitterPod, submitterPods, submitter };
}

/** A JSON answer's field, or undefined when the answer is no JSON (a non-JSON answer is no answer). */
function jsonField(body: string, read: (value: unknown) => void): void {
  try {
    read(JSON.parse(body));
  } catch { /* ignore */ }
}

/** The Ray job as the head's dashboard shows it: how many submissions it lists, the job's status and logs. */
async function lookAtRayJob(driver: Driver, namespace: string, observation: Observation, options: ObserveOptions): Promise<void> {
  const service = `${observation.cluster}-head-svc`;
  const jobPath = `/api/jobs/${encodeURIComponent(observation.jobId)}`;
  const [list, job, logs] = await Promise.all([
    driver.dashboard(namespace, service, '/api/jobs/'),
    observation.jobId === '' ? undefined : driver.dashboard(namespace, service, jobPath),
    observation.jobId === '' || options.logs === false ? undefined : driver.dashboard(namespace, service, `${jobPath}/logs`),
  ]);
  if (list?.status === 200) jsonField(list.body, (jobs) => { observation.submissions = (jobs as unknown[]).length; });
  if (job?.status === 404) observation.rayJobNotFound = true;
  if (job?.status === 200) jsonField(job.body, (body) => { observation.rayStatus = str((body as { status?: unknown }).status); });
  if (logs?.status === 200) {
    jsonField(logs.body, (body) => {
      observation.logs = str((body as { logs?: unknown }).logs);
      const { step, of } = lastStep(observation.logs);
      observation.progress = step;
      observation.progressOf = of;
    });
  }
}

export async function observe(driver: Driver, namespace: string, name: string, startMs: number, now = Date.now, options: ObserveOptions = {}): Promise<Observation> {
  // One round of reads at once (each scenario has its namespace to itself): through kubectl every read is a
  // process that takes a while on a loaded machine, so a look must not be a chain of them.
  const [rayJob, clusters, pods] = await Promise.all([
    driver.get('rayjobs', namespace, name),
    driver.list('rayclusters', namespace),
    driver.list('pods', namespace),
  ]);
  const status = (rayJob?.status ?? {}) as Record<string, unknown>;
  const clusterName = str(status.rayClusterName);
  const mode = str((rayJob?.spec ?? {}).submissionMode) || 'K8sJobMode';
  const cluster = clusters.find((c) => clusterName !== '' && c.metadata.name === clusterName);
  const { head, workersRunning } = clusterPods(pods, clusterName);
  const { submitterPod, submitterPods, submitter } = findSubmitter(mode, head, pods, name);

  const observation: Observation = {
    atMs: now() - startMs,
    deploymentStatus: str(status.jobDeploymentStatus),
    jobStatus: str(status.jobStatus),
    reason: str(status.reason),
    message: str(status.message),
    failed: num(status.failed),
    succeeded: num(status.succeeded),
    jobId: str(status.jobId),
    cluster: clusterName,
    clusterExists: cluster !== undefined,
    ...(head && { headPod: head.metadata.name, headPhase: (head.status as PodStatus | undefined)?.phase ?? 'Pending' }),
    workersRunning,
    ...(submitterPod && { submitterPod: submitterPod.metadata.name }),
    submitter: submitter.text,
    submitterExited: submitter.exited,
    progress: 0,
    progressOf: 0,
    submitterPods,
  };
  if (cluster && head && (head.status as PodStatus | undefined)?.phase === 'Running') await lookAtRayJob(driver, namespace, observation, options);
  return observation;
}
