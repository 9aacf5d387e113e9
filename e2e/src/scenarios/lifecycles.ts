// The main lifecycle of each submission mode: apply a RayJob, it runs to Complete, nothing is left behind
// that the spec did not ask to keep. In InteractiveMode the scenario is the user: once the RayJob is Waiting it
// submits the job to the head and sets spec.jobId (`ray job submit`, then `kubectl patch`).
import type { Scenario, SubmissionMode } from '../scenario/types.ts';
import { completed } from './cases.ts';

const lifecycle = (mode: Exclude<SubmissionMode, 'InteractiveMode'>): Scenario => ({
  id: `lifecycle-${mode}`,
  title: `${mode}: a RayJob runs to Complete and its cluster is deleted (shutdownAfterJobFinishes)`,
  mode,
  rayJob: { mode, steps: 6, stepSeconds: 0.3, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 },
  steps: [{ kind: 'wait', until: { deploymentStatus: 'Complete' }, timeoutSeconds: 150 }],
  expect: { ...completed, logsContain: ['step 6/6', 'done'] },
  clusterKeptWhileRunning: true,
  clusterAfter: 'deleted',
  runsPerAttempt: 1,
  kuberay: { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', note: 'same', sameAsOurs: true },
  timeoutSeconds: 200,
});

export const lifecycleScenarios: Scenario[] = [
  lifecycle('K8sJobMode'),
  lifecycle('SidecarMode'),
  lifecycle('HTTPMode'),
  {
    id: 'lifecycle-InteractiveMode',
    title: 'InteractiveMode: the RayJob waits for a job ID; the user submits the job and sets spec.jobId; it runs to Complete',
    mode: 'InteractiveMode',
    rayJob: { mode: 'InteractiveMode', steps: 6, stepSeconds: 0.3 },
    steps: [
      { kind: 'wait', until: { deploymentStatus: 'Waiting', clusterExists: true }, timeoutSeconds: 150 },
      { kind: 'submitByHand' },
      { kind: 'wait', until: { deploymentStatus: 'Complete' }, timeoutSeconds: 120 },
    ],
    expect: { ...completed, logsContain: ['step 6/6', 'done'] },
    clusterKeptWhileRunning: true,
    // InteractiveMode keeps its cluster for the next job a user submits (shutdownAfterJobFinishes unset).
    clusterAfter: 'kept',
    runsPerAttempt: 1,
    kuberay: { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', note: 'same (no submitter: Complete once Ray reports SUCCEEDED)', sameAsOurs: true },
    timeoutSeconds: 280,
  },
];
