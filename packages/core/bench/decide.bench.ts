// Decision throughput: how many RayJob reconcile decisions per second core makes for a Running K8sJobMode
// RayJob, against a baseline measured in the same run: one structuredClone of the same input (the least any
// decision must do is read its input once). Printed as a ratio, so numbers compare across machines.
import { decide, defaultDecisionSettings, RayJobSchema, type DecisionInput } from '../src/index.ts';

const rayJob = RayJobSchema.parse({
  metadata: { name: 'bench', namespace: 'default', uid: 'u', generation: 1, finalizers: ['ray.io/rayjob-finalizer'] },
  spec: {
    entrypoint: 'python train.py',
    rayClusterSpec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'head', image: 'rayproject/ray:2.55.1' }] } } } },
  },
  status: { jobDeploymentStatus: 'Running', jobStatus: 'RUNNING', jobId: 'bench-abcde', rayClusterName: 'bench-xyz12', dashboardURL: 'bench-xyz12-head-svc.default.svc.cluster.local:8265', startTime: '2026-12-02T10:00:00Z' },
});
const now = new Date('2026-12-02T10:05:00Z');
const input: DecisionInput = {
  rayJob,
  cluster: { metadata: { name: 'bench-xyz12' }, spec: rayJob.spec.rayClusterSpec!, status: { state: 'ready' } },
  rayJobHeadService: { metadata: { name: 'bench-head-svc' }, spec: { selector: { 'ray.io/cluster': 'bench-xyz12' } } },
  submitterJob: { metadata: { name: 'bench' }, status: { active: 1 } },
  dashboard: { kind: 'found', info: { status: 'RUNNING', message: 'running', startTime: 1, driverNodeId: 'n1' } },
  driverNode: { kind: 'alive', nodeId: 'n1' },
  memory: {},
  settings: defaultDecisionSettings,
  now,
  random: Math.random,
};

function rate(fn: () => void, ms = 1500): number {
  for (let i = 0; i < 2000; i++) fn(); // warm up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
  }
  return n / ((performance.now() - start) / 1000);
}

const baseline = rate(() => structuredClone(input.rayJob));
const decisions = rate(() => decide(input));
console.log(`baseline (structuredClone of the RayJob): ${Math.round(baseline).toLocaleString('en')} /s`);
console.log(`decide (Running, K8sJobMode):             ${Math.round(decisions).toLocaleString('en')} /s`);
console.log(`ratio decide / baseline: ${(decisions / baseline).toFixed(3)} (one decision costs ${(baseline / decisions).toFixed(1)} clones)`);
console.log(`at 10,000 RayJobs polled every 3 s: ${((10000 / 3 / decisions) * 100).toFixed(2)} % of one core`);
