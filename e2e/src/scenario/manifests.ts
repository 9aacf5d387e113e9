// RayJob manifests for scenarios: KubeRay's sample shape (a head and an optional worker group of
// rayproject/ray), with the knobs the cases turn. The job itself prints `step i/N` once per interval, so the
// runner can read its progress from the job's logs, and ends with `done`.
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import type { RayJobShape } from './types.ts';

export type { RayJobShape } from './types.ts';


export const rayImage = 'rayproject/ray:2.55.1';

export function stepsEntrypoint(shape: RayJobShape): string {
  const loop = `for i in $(seq 1 ${shape.steps}); do echo "step $i/${shape.steps}"; sleep ${shape.stepSeconds}; done`;
  // Every retry gets a new cluster, so the attempt counter lives on the node (a hostPath volume, see below). A
  // failing attempt fails at once: only the attempt that succeeds runs the steps (a fault can land mid-job in it).
  const failing = shape.failFirst === undefined
    ? ''
    : `n=$(cat /e2e-state/attempts 2>/dev/null || echo 0); echo $((n+1)) > /e2e-state/attempts; [ $n -ge ${shape.failFirst} ] || exit 1; `;
  const exit = shape.exitCode === undefined || shape.exitCode === 0 ? '; echo done' : `; echo failing; exit ${shape.exitCode}`;
  return shape.entrypoint ?? `bash -c '${failing}${loop}${exit}'`;
}

function rayContainer(name: string) {
  return {
    name,
    image: rayImage,
    resources: { limits: { cpu: '1', memory: '2Gi' }, requests: { cpu: '200m', memory: '256Mi' } },
  };
}

/**
 * Where a scenario's state that must outlive a cluster is kept on the node (per RayJob). One folder per test
 * process: suites on the same machine (and their clean-up) never share or delete each other's counters.
 */
export const stateHostDir = `/tmp/rayjob-e2e-state/${process.pid}`;

/** KubeRay's default head readiness check for Ray >= 2.53 (the agent's /api/healthz), on a shorter clock. */
const promptReadinessProbe = {
  httpGet: { path: '/api/healthz', port: 52365 }, initialDelaySeconds: 1, periodSeconds: 2, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 25,
};

function headPodSpec(namespace: string, name: string, shape: RayJobShape): Record<string, unknown> {
  const container: Record<string, unknown> = { ...rayContainer('ray-head'), ports: [{ containerPort: 8265, name: 'dashboard' }] };
  if (shape.promptHeadReadiness) container.readinessProbe = promptReadinessProbe;
  if (shape.failFirst === undefined) return { containers: [container] };
  container.volumeMounts = [{ name: 'e2e-state', mountPath: '/e2e-state' }];
  return {
    containers: [container],
    volumes: [{ name: 'e2e-state', hostPath: { path: `${stateHostDir}/${namespace}-${name}`, type: 'DirectoryOrCreate' } }],
  };
}

export function rayJobManifest(namespace: string, name: string, shape: RayJobShape): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    submissionMode: shape.mode,
    rayClusterSpec: {
      rayVersion: '2.55.1',
      headGroupSpec: {
        rayStartParams: shape.headStartParams ?? {},
        template: { spec: headPodSpec(namespace, name, shape) },
      },
      ...(shape.workers !== undefined && shape.workers > 0 && {
        workerGroupSpecs: [{
          groupName: 'small-group',
          replicas: shape.workers,
          minReplicas: shape.workers,
          maxReplicas: shape.workers,
          rayStartParams: {},
          template: { spec: { containers: [rayContainer('ray-worker')] } },
        }],
      }),
    },
  };
  if (shape.mode !== 'InteractiveMode') spec.entrypoint = stepsEntrypoint(shape);
  if (shape.shutdownAfterJobFinishes !== undefined) spec.shutdownAfterJobFinishes = shape.shutdownAfterJobFinishes;
  if (shape.ttlSecondsAfterFinished !== undefined) spec.ttlSecondsAfterFinished = shape.ttlSecondsAfterFinished;
  if (shape.backoffLimit !== undefined) spec.backoffLimit = shape.backoffLimit;
  if (shape.activeDeadlineSeconds !== undefined) spec.activeDeadlineSeconds = shape.activeDeadlineSeconds;
  if (shape.submitterBackoffLimit !== undefined) spec.submitterConfig = { backoffLimit: shape.submitterBackoffLimit };
  if (shape.submitterNoWait) {
    // Our image with the user's own command (without one, KubeRay's `ray job submit` script would replace it);
    // the operator still gives it the dashboard address and the submission ID as env.
    spec.submitterPodTemplate = {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'ray-job-submitter', image: DEFAULT_SUBMITTER_IMAGE, command: ['/submitter'], args: ['--no-wait', '--', spec.entrypoint] }],
      },
    };
  }
  return { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name, namespace }, spec };
}
