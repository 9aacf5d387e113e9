// The main lifecycle of each submission mode: apply a RayJob, it runs to Complete, nothing is left behind
// that the spec did not ask to keep. InteractiveMode waits for a job ID that the scenario submits itself
// (as a user would with `kubectl patch` after `ray job submit`), so it only checks the Waiting state here.
import type { Scenario, SubmissionMode } from '../scenario/types.ts';

const lifecycle = (mode: Exclude<SubmissionMode, 'InteractiveMode'>): Scenario => ({
  id: `lifecycle-${mode}`,
  title: `${mode}: a RayJob runs to Complete and its cluster is deleted (shutdownAfterJobFinishes)`,
  mode,
  rayJob: { mode, steps: 6, stepSeconds: 0.3, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 },
  steps: [{ kind: 'wait', until: { deploymentStatus: 'Complete' }, timeoutSeconds: 150 }],
  expect: { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', logsContain: ['step 6/6', 'done'] },
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
    title: 'InteractiveMode: the cluster comes up and the RayJob waits for a job ID',
    mode: 'InteractiveMode',
    rayJob: { mode: 'InteractiveMode', steps: 0, stepSeconds: 0 },
    steps: [{ kind: 'wait', until: { deploymentStatus: 'Waiting', clusterExists: true }, timeoutSeconds: 150 }],
    expect: { deploymentStatus: 'Waiting' },
    clusterKeptWhileRunning: true,
    clusterAfter: 'kept',
    runsPerAttempt: 1,
    kuberay: { deploymentStatus: 'Waiting', note: 'same', sameAsOurs: true },
    timeoutSeconds: 200,
  },
];
