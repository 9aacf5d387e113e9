// The status-correctness cases marked E2E (reference/status-correctness.md) as data. Each names what KubeRay
// does with the same input (reference/kuberay-issues.md, kuberay-rayjob.md) and asserts an outcome that
// KubeRay's would fail, where KubeRay's is wrong.
import type { RayJobShape } from '../scenario/manifests.ts';
import type { Scenario, Step } from '../scenario/types.ts';

/** The seed's job: 40 steps. Step length is chosen so a fault lands mid-job on a loaded 2-core machine. */
const seedJob = (extra: Partial<RayJobShape> = {}): RayJobShape => ({ mode: 'K8sJobMode', steps: 40, stepSeconds: 0.5, ...extra });

const midJob = (step = 8): Step => ({ kind: 'wait', until: { deploymentStatus: 'Running', progressAtLeast: step }, timeoutSeconds: 120 });
const untilTerminal = (deploymentStatus: string, timeoutSeconds = 120): Step => ({ kind: 'wait', until: { deploymentStatus }, timeoutSeconds });

const base = { clusterKeptWhileRunning: true, runsPerAttempt: 1, timeoutSeconds: 240 } as const;

/** Complete: Ray's own message for a job that succeeded, and no reason (KubeRay sets one only on Failed). */
export const completed = { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', reason: '', message: 'Job finished successfully.' } as const;

export const caseScenarios: Scenario[] = [
  {
    ...base,
    id: 'C1',
    title: 'the submitter pod is deleted mid-job (K8sJobMode, submitter backoffLimit 0)',
    mode: 'K8sJobMode',
    rayJob: seedJob({ submitterBackoffLimit: 0 }),
    steps: [midJob(), { kind: 'fault', fault: 'deleteSubmitterPod' }, untilTerminal('Complete')],
    expect: { ...completed, logsContain: ['step 40/40'] },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed', note: 'the submitter Job exhausts its backoff: Failed/SubmissionFailed while Ray still runs the job (#2314, #5100)' },
  },
  {
    ...base,
    id: 'C2',
    title: "the head's JobHead is killed mid-job (head + 2 workers, shutdownAfterJobFinishes, ttl 0)",
    mode: 'K8sJobMode',
    rayJob: seedJob({ workers: 2, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0, submitterBackoffLimit: 0 }),
    steps: [midJob(), { kind: 'fault', fault: 'killJobHead' }, untilTerminal('Complete')],
    expect: { ...completed, logsContain: ['step 40/40'] },
    clusterAfter: 'deleted',
    kuberay: { deploymentStatus: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', note: '`ray job submit` exits 0 when its tail closes 1000; 30 s later Failed and the cluster is deleted under the live job (#4921); or exit 1 and SubmissionFailed' },
  },
  {
    ...base,
    id: 'C3',
    title: "SidecarMode: the head's JobHead is killed mid-job",
    mode: 'SidecarMode',
    rayJob: seedJob({ mode: 'SidecarMode', shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 }),
    steps: [midJob(), { kind: 'fault', fault: 'killJobHead' }, untilTerminal('Complete')],
    expect: { ...completed, logsContain: ['step 40/40'] },
    clusterAfter: 'deleted',
    kuberay: { deploymentStatus: 'Failed', reason: 'SubmissionFailed', note: 'the sidecar exits 1 on the restart window\'s 500 and SidecarMode fails at once (or exits 0 and the grace period fails it)' },
  },
  {
    ...base,
    id: 'C6',
    title: 'the head pod is force-deleted mid-job (K8sJobMode, submitter backoffLimit 0, no GCS FT)',
    mode: 'K8sJobMode',
    rayJob: seedJob({ submitterBackoffLimit: 0 }),
    steps: [midJob(), { kind: 'fault', fault: 'forceDeleteHeadPod' }, untilTerminal('Failed')],
    expect: { deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Submitter completed but Ray job not found in RayCluster.' },
    clusterAfter: 'any',
    kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'AppFailed', message: 'Submitter completed but Ray job not found in RayCluster.', note: 'same verdict with backoffLimit 0, but jobStatus left RUNNING for the lost job; with retries `ray job submit` would submit the job again to the new head' },
  },
  {
    ...base,
    id: 'C7',
    title: "the head's DashboardAgent is killed (node DEAD, Ray's status frozen RUNNING)",
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 200 }),
    steps: [midJob(), { kind: 'fault', fault: 'killDashboardAgent' }, untilTerminal('Failed', 150)],
    expect: {
      deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      // Rule 4 (the submitter exited 5 and 30 s passed) or addition F (the operator saw the node DEAD for 30 s),
      // whichever comes first: the same verdict, each with its own text.
      message: /^(The RayJob submitter finished at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d but the ray job did not reach terminal state within 30s|The Ray job's driver node \S+ has been DEAD or missing since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d; the job cannot finish \(no evidence of life within 30s\))$/,
    },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', note: 'Failed 30 s after `ray job submit` exits 0 (right by luck), jobStatus left RUNNING (#2314)' },
  },
  {
    ...base,
    id: 'C8',
    title: 'the submitter exits 0 while the job runs on a live node',
    mode: 'K8sJobMode',
    // A long job whose submitter (our image, run by the user's template with --no-wait) exits 0 right after
    // submitting; the job then runs well past 3 x 30 s.
    rayJob: seedJob({ steps: 110, stepSeconds: 1, submitterNoWait: true }),
    steps: [
      { kind: 'wait', until: { deploymentStatus: 'Running', submitterExited: true, progressAtLeast: 1 }, timeoutSeconds: 150 },
      { kind: 'hold', seconds: 95, while: { deploymentStatus: 'Running' } },
      untilTerminal('Complete', 120),
    ],
    expect: completed,
    clusterAfter: 'kept',
    timeoutSeconds: 300,
    kuberay: { deploymentStatus: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', note: '30 s after the submitter finished, whatever the job is doing (#4091, #4921)' },
  },
  {
    ...base,
    id: 'C12',
    title: 'SidecarMode: the head pod is deleted',
    mode: 'SidecarMode',
    rayJob: seedJob({ mode: 'SidecarMode' }),
    steps: [midJob(), { kind: 'fault', fault: 'deleteHeadPod' }, untilTerminal('Failed')],
    expect: { deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Ray head pod not found.' },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'AppFailed', message: 'Ray head pod not found.', note: 'same verdict (#4141, #4234: the head is not recreated), but jobStatus left RUNNING for the lost job' },
  },
  {
    ...base,
    id: 'C15',
    title: 'activeDeadlineSeconds passes while the job runs',
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 300, stepSeconds: 1, activeDeadlineSeconds: 45 }),
    steps: [untilTerminal('Failed', 150), { kind: 'wait', until: { deploymentStatus: 'Failed', jobStatus: 'STOPPED' }, timeoutSeconds: 30 }],
    expect: {
      deploymentStatus: 'Failed', jobStatus: 'STOPPED', reason: 'DeadlineExceeded', rayStatus: 'STOPPED',
      message: /^The RayJob has passed the activeDeadlineSeconds\. StartTime: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\. ActiveDeadlineSeconds: 45$/,
    },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Failed', reason: 'DeadlineExceeded', rayStatus: 'RUNNING', note: 'the Ray job keeps running under the Failed RayJob (#2314, #5295)' },
  },
  {
    ...base,
    id: 'C16',
    title: 'an entrypoint with `;`, backticks, quotes and `&&` runs whole',
    mode: 'K8sJobMode',
    rayJob: seedJob({ entrypoint: `echo "one;two" && echo \`echo backtick\` ; echo 'single "quoted"' && echo last-part` }),
    steps: [untilTerminal('Complete')],
    expect: { ...completed, logsContain: ['one;two', 'backtick', 'single "quoted"', 'last-part'] },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', logsContain: ['one;two'], note: 'older KubeRay ran only the part before the first `;` or `&&` on the cluster (#3561, #3764, #3802)' },
  },
  {
    ...base,
    id: 'C17',
    title: 'the submitter is retried after a successful submit, while the head\'s JobHead restarts (submitter backoffLimit 1)',
    mode: 'K8sJobMode',
    rayJob: seedJob({ submitterBackoffLimit: 1 }),
    // The submitter pod is deleted; once the Job controller's retry pod is there, the JobHead restarts (its routes
    // answer 500 for ~2 s), so the retry's first look-up of the submission ID lands in the restart window.
    steps: [
      midJob(3),
      { kind: 'fault', fault: 'deleteSubmitterPod' },
      { kind: 'wait', until: { submitterPresent: false }, timeoutSeconds: 60 },
      { kind: 'wait', until: { deploymentStatus: 'Running', submitterPresent: true }, timeoutSeconds: 60 },
      { kind: 'fault', fault: 'killJobHead' },
      untilTerminal('Complete'),
    ],
    expect: { ...completed, logsContain: ['step 40/40'], submitterPodsAtMost: 2 },
    clusterAfter: 'kept',
    kuberay: {
      deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed', submitterPodsAtMost: 2,
      note: 'the retry\'s `if ! ray job status` fails on the restarting JobHead (exit 1 when the dashboard is unreachable, kuberay-issues.md 3.2), so it runs `ray job submit` again and Ray answers "already exists ... Please use a different submission_id" (kuberay-issues.md pain point 3, #2154, #2579): the pod fails, the backoff of 1 is spent, Failed/SubmissionFailed with the job RUNNING (#2314)',
    },
  },
  {
    ...base,
    id: 'C19',
    title: 'the submitter Job is deleted mid-run',
    mode: 'K8sJobMode',
    rayJob: seedJob(),
    steps: [midJob(), { kind: 'fault', fault: 'deleteSubmitterJob' }, untilTerminal('Complete')],
    expect: { ...completed, logsContain: ['step 40/40'] },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Running', note: 'stuck in Running: every reconcile fails to GET the Job (§6)' },
  },
  {
    ...base,
    id: 'C20',
    title: 'the operator is stopped while the job succeeds, and started again 35 s after the submitter finished',
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 20 }),
    steps: [
      midJob(3),
      { kind: 'fault', fault: 'stopOperator' },
      // The job ends while no operator runs (the manual test waits 2 minutes). What matters is that the
      // submitter finished more than 30 s before the operator is back: KubeRay then checks its
      // submitter-finished timeout before it asks the dashboard, and fails the job that succeeded (C10).
      { kind: 'wait', until: { deploymentStatus: 'Running', submitterExited: true }, timeoutSeconds: 120 },
      { kind: 'hold', seconds: 35, while: { deploymentStatus: 'Running' } },
      { kind: 'fault', fault: 'startOperator' },
      untilTerminal('Complete'),
    ],
    expect: completed,
    clusterAfter: 'kept',
    needs: ['operatorRestart'],
    timeoutSeconds: 300,
    kuberay: {
      deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      note: 'its first reconcile after the restart runs the submitter-finished timeout (finishedAt + 30 s passed) before GetJobInfo, so the CR\'s stale RUNNING fails a job that succeeded (kuberay-rayjob.md 2.4.4; #5099 moves the check)',
    },
  },
  {
    ...base,
    id: 'C21',
    title: 'backoffLimit 2: the job fails twice, then succeeds although its submitter pod is deleted mid-job (submitter backoffLimit 0)',
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 12, failFirst: 2, backoffLimit: 2, shutdownAfterJobFinishes: true, submitterBackoffLimit: 0 }),
    steps: [
      { kind: 'wait', until: { failedAtLeast: 1 }, timeoutSeconds: 150 },
      { kind: 'wait', until: { failedAtLeast: 2 }, timeoutSeconds: 150 },
      // The third attempt, mid-job: its submitter pod goes (C1's trigger, on the attempt that succeeds).
      { kind: 'wait', until: { failedAtLeast: 2, deploymentStatus: 'Running', progressAtLeast: 3 }, timeoutSeconds: 150 },
      { kind: 'fault', fault: 'deleteSubmitterPod' },
      untilTerminal('Complete', 150),
    ],
    expect: { ...completed, failed: 2, succeeded: 1 },
    clusterAfter: 'deleted',
    timeoutSeconds: 420,
    kuberay: {
      deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed', failed: 3, succeeded: 0,
      note: 'the third attempt\'s submitter Job fails (backoff 0) while Ray runs the job: Failed/SubmissionFailed (#2314, status-correctness.md "The failure we fix"); that is the third failure, no retry is left (kuberay-rayjob.md 2.4.9: attempts = backoffLimit + 1), and shutdownAfterJobFinishes deletes the cluster under the live job',
    },
  },
  {
    ...base,
    id: 'C22',
    title: 'shutdownAfterJobFinishes: the Running RayJob is suspended, then resumed; the resumed attempt\'s submitter pod is deleted mid-job (submitter backoffLimit 0)',
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 20, shutdownAfterJobFinishes: true, submitterBackoffLimit: 0 }),
    steps: [
      midJob(3),
      { kind: 'fault', fault: 'suspend' },
      { kind: 'wait', until: { deploymentStatus: 'Suspended', clusterExists: false }, timeoutSeconds: 90 },
      { kind: 'fault', fault: 'resume' },
      // The resumed attempt (new cluster, new submitter) mid-job: its submitter pod goes.
      { kind: 'wait', until: { deploymentStatus: 'Running', progressAtLeast: 3 }, timeoutSeconds: 150 },
      { kind: 'fault', fault: 'deleteSubmitterPod' },
      untilTerminal('Complete', 150),
    ],
    expect: completed,
    clusterAfter: 'deleted',
    timeoutSeconds: 360,
    kuberay: {
      deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed',
      note: 'suspend and resume as ours (kuberay-rayjob.md 2.4.10: new cluster, new submitter), then the resumed submitter Job fails (backoff 0) while Ray runs the job: Failed/SubmissionFailed and, with shutdownAfterJobFinishes, the cluster deleted under the live job (#2314)',
    },
  },
  {
    ...base,
    id: 'C25',
    title: 'a FAILED Ray job with submitter backoffLimit 2',
    mode: 'K8sJobMode',
    rayJob: seedJob({ steps: 3, stepSeconds: 0.2, exitCode: 3, submitterBackoffLimit: 2 }),
    steps: [untilTerminal('Failed')],
    expect: { deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: /^Job entrypoint command failed with exit code 3, last available logs/, submitterPodsAtMost: 1 },
    clusterAfter: 'kept',
    kuberay: { deploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', submitterPodsAtMost: 3, note: 'the submitter Job retries a finished job twice more (two extra pods) before AppFailed' },
  },
];
