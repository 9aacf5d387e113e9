// The demo's scenario: the seed's case C1 with the JobHead kill of C2 on the same job. A KubeRay-shaped RayJob
// (K8sJobMode, submitter backoffLimit 0, a 40-step job), its submitter pod deleted at step 8 and the head's
// JobHead killed at step 20: the two triggers that make KubeRay fail a healthy job.
import type { Scenario } from '../scenario/types.ts';
import { completed } from '../scenarios/cases.ts';

export const demoScenario: Scenario = {
  id: 'demo',
  title: 'a submitter pod deleted and the JobHead killed mid-job; the RayJob still completes',
  mode: 'K8sJobMode',
  rayJob: { mode: 'K8sJobMode', steps: 40, stepSeconds: 0.5, submitterBackoffLimit: 0 },
  steps: [
    { kind: 'wait', until: { deploymentStatus: 'Running', progressAtLeast: 8 }, timeoutSeconds: 150 },
    { kind: 'fault', fault: 'deleteSubmitterPod' },
    { kind: 'wait', until: { progressAtLeast: 20 }, timeoutSeconds: 90 },
    { kind: 'fault', fault: 'killJobHead' },
    { kind: 'wait', until: { deploymentStatus: 'Complete' }, timeoutSeconds: 120 },
  ],
  expect: { ...completed, logsContain: ['step 40/40'] },
  clusterKeptWhileRunning: true,
  // The demo stops at the verdict; that the cluster outlives it is C1's check in the e2e suite.
  clusterAfter: 'any',
  runsPerAttempt: 1,
  kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed', note: 'the submitter Job exhausts its backoff (#2314, #5100)' },
  // Bounds for a loaded machine; on a quiet 2-core machine the whole demo takes well under a minute.
  timeoutSeconds: 360,
};
