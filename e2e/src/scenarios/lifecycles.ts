// The main lifecycle of each submission mode, with the fault that mode meets in practice and KubeRay gets wrong:
// apply a RayJob, the mode's trigger lands mid-run, the status stays true, nothing is left behind that the spec
// did not ask to keep. In InteractiveMode the scenario is the user: once the RayJob is Waiting it submits the job
// to the head and sets spec.jobId (`ray job submit`, then `kubectl patch`).
import type { Scenario, Step } from '../scenario/types.ts';
import { completed } from './cases.ts';

/** A short job: long enough for a fault at step 3 to land while it runs on a loaded machine. */
const job = { steps: 12, stepSeconds: 0.5, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 } as const;
const running = (step: number): Step => ({ kind: 'wait', until: { deploymentStatus: 'Running', progressAtLeast: step }, timeoutSeconds: 150 });
const until = (deploymentStatus: string, timeoutSeconds = 150): Step => ({ kind: 'wait', until: { deploymentStatus }, timeoutSeconds });
const base = { clusterKeptWhileRunning: true, clusterAfter: 'deleted', runsPerAttempt: 1 } as const;

export const lifecycleScenarios: Scenario[] = [
  {
    ...base,
    id: 'lifecycle-K8sJobMode',
    title: 'K8sJobMode: a RayJob runs to Complete although its submitter pod is deleted mid-job (submitter backoffLimit 0); its cluster is deleted after',
    mode: 'K8sJobMode',
    rayJob: { mode: 'K8sJobMode', ...job, submitterBackoffLimit: 0 },
    steps: [running(3), { kind: 'fault', fault: 'deleteSubmitterPod' }, until('Complete')],
    expect: { ...completed, logsContain: ['step 12/12', 'done'] },
    timeoutSeconds: 200,
    kuberay: {
      deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed',
      note: 'the submitter Job exhausts its backoff: Failed/SubmissionFailed while Ray still runs the job, and shutdownAfterJobFinishes deletes the cluster under it seconds later (status-correctness.md "The failure we fix", #2314)',
    },
  },
  {
    ...base,
    id: 'lifecycle-SidecarMode',
    title: "SidecarMode: a RayJob runs to Complete although the head's JobHead restarts mid-job; its cluster is deleted after",
    mode: 'SidecarMode',
    // The sidecar submits as soon as the head is up, so the job may be well on before the RayJob is Running
    // (the cluster's readiness): the fault waits for the job's progress only, and the job is longer.
    rayJob: { mode: 'SidecarMode', ...job, steps: 16 },
    steps: [{ kind: 'wait', until: { progressAtLeast: 3 }, timeoutSeconds: 150 }, { kind: 'fault', fault: 'killJobHead' }, until('Complete')],
    expect: { ...completed, logsContain: ['step 16/16', 'done'] },
    timeoutSeconds: 200,
    kuberay: {
      deploymentStatus: 'Failed', reason: 'SubmissionFailed',
      note: "the sidecar's `ray job logs --follow` ends on the restart's normal close and its status query gets the 500: exit 1, and SidecarMode without the restart gate fails at once (kuberay-issues.md 3.3, \"JobHead subprocess killed\"); exit 0 instead gives the grace-period Failed 30 s later (#4921)",
    },
  },
  {
    ...base,
    id: 'lifecycle-HTTPMode',
    title: "HTTPMode: the operator submits the job; its driver's node dies mid-job (DashboardAgent killed, Ray's status frozen RUNNING); Failed ~30 s later and its cluster deleted (C23)",
    mode: 'HTTPMode',
    rayJob: { mode: 'HTTPMode', ...job, steps: 40 },
    steps: [running(3), { kind: 'fault', fault: 'killDashboardAgent' }, until('Failed')],
    expect: {
      deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      // Addition F: HTTPMode has no submitter, so the operator's own 30 s of the node DEAD is the only evidence.
      message: /^The Ray job's driver node \S+ has been DEAD or missing since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d; the job cannot finish \(no evidence of life within 30s\)$/,
    },
    timeoutSeconds: 240,
    kuberay: {
      deploymentStatus: 'Running', jobStatus: 'RUNNING', reason: '',
      note: 'Running forever: no submitter, so no submitter-finished timeout, and no driver-liveness check (status-correctness.md C23, addition F; Ray leaves the job RUNNING, ray#65037)',
    },
  },
  {
    ...base,
    id: 'lifecycle-InteractiveMode',
    title: 'InteractiveMode: the RayJob waits for a job ID; suspended while Waiting it gives its cluster back; resumed, it waits again; the user submits the job and sets spec.jobId; it runs to Complete',
    mode: 'InteractiveMode',
    // shutdownAfterJobFinishes: a RayJob may be suspended only with it (KubeRay's validation, kept).
    rayJob: { mode: 'InteractiveMode', ...job, steps: 6, stepSeconds: 0.3 },
    steps: [
      { kind: 'wait', until: { deploymentStatus: 'Waiting', clusterExists: true }, timeoutSeconds: 150 },
      // A forgotten interactive cluster reclaimed: KubeRay's Waiting never looks at suspend.
      { kind: 'fault', fault: 'suspend' },
      { kind: 'wait', until: { deploymentStatus: 'Suspended', clusterExists: false }, timeoutSeconds: 60 },
      { kind: 'fault', fault: 'resume' },
      { kind: 'wait', until: { deploymentStatus: 'Waiting', clusterExists: true }, timeoutSeconds: 150 },
      { kind: 'submitByHand' },
      until('Complete', 120),
    ],
    expect: { ...completed, logsContain: ['step 6/6', 'done'] },
    timeoutSeconds: 400,
    kuberay: {
      deploymentStatus: 'Waiting', jobStatus: '', reason: '',
      note: 'suspend is not checked in Waiting (kuberay-rayjob.md 2.3 "Waiting", 6.5): the RayJob stays Waiting with its cluster, never Suspended, and the scenario stops there',
    },
  },
];
