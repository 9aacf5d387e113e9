import { fromHeadPods, fromK8sJob, type DecisionSettings, type OperatorMemory, type Pod, type RayJob, type K8sJob } from '@rayjob/core';

/**
 * With nothing suggesting a loss, a RUNNING job's driver node is still checked this often (per cluster), so a
 * driver lost without any other sign is found (rule F) while a steady job costs ~1 dashboard request a minute.
 */
export const NODE_CHECK_BACKSTOP_SECONDS = 300;

export interface NodeCheckSigns {
  rayJob: RayJob;
  memory: OperatorMemory;
  settings: DecisionSettings;
  submitterJob: K8sJob | undefined;
  submitterPods: Pod[];
  headPods: Pod[];
  /** The job's log tail is open (Ray closes it when the job ends or the driver's node agent goes). */
  tailOpen: boolean;
  /** Milliseconds since this cluster's node summary was last asked for, if it was. */
  lastAskedAgoMs: number | undefined;
}

/**
 * Whether a reconcile that core would let read the driver node's liveness (a RUNNING job with a driver node)
 * should ask for it now. Scheduling only — core judges the answer: an unchecked node is neither alive nor dead
 * evidence, and the rules that need an answer (rule 4 once the submitter finished, F while its clock runs) always
 * get one here.
 */
export function driverCheckDue(s: NodeCheckSigns): boolean {
  const jobId = s.rayJob.status?.jobId ?? '';
  if (s.memory.driverNodeLostSince?.jobId === jobId) return true;
  if (submitterNotRunning(s)) return true;
  if (!s.tailOpen) return true;
  if (s.headPods.some((p) => !podReady(p))) return true;
  return s.lastAskedAgoMs === undefined || s.lastAskedAgoMs >= NODE_CHECK_BACKSTOP_SECONDS * 1000;
}

/**
 * K8sJobMode and SidecarMode: a submitter is following the Ray job now. It exits when the job ends, and its exit
 * reaches a reconcile as an event (the Job's or the head pod's status), so the job's end needs no tail of ours.
 */
export function submitterRunning(s: Pick<NodeCheckSigns, 'rayJob' | 'settings' | 'submitterJob' | 'submitterPods' | 'headPods'>): boolean {
  const mode = s.rayJob.spec.submissionMode ?? 'K8sJobMode';
  return (mode === 'K8sJobMode' || mode === 'SidecarMode') && !submitterNotRunning(s);
}

/** K8sJobMode and SidecarMode: the submitter finished or is gone (rule 4's window may be open). */
function submitterNotRunning(s: Pick<NodeCheckSigns, 'rayJob' | 'settings' | 'submitterJob' | 'submitterPods' | 'headPods'>): boolean {
  const mode = s.rayJob.spec.submissionMode ?? 'K8sJobMode';
  const jobId = s.rayJob.status?.jobId ?? '';
  if (mode === 'K8sJobMode') {
    const state = fromK8sJob(s.submitterJob, s.submitterPods, jobId);
    return state.missing || state.finishedAt !== undefined;
  }
  if (mode === 'SidecarMode') {
    const state = fromHeadPods(s.headPods, jobId, s.settings.featureGates.sidecarSubmitterRestart, s.rayJob.spec.submitterConfig?.backoffLimit ?? 2);
    return state.headPodMissing || state.finishedAt !== undefined || state.failure !== undefined;
  }
  return false;
}

const podReady = (p: Pod): boolean => (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
