/**
 * Addition H, issue 8 defect 4: once a Ray status is recorded, the decision asks for the attach-only mark that the
 * first submitter Job and SidecarMode's sidecar read at every container start, until the executor reports it
 * written. Without it, a retried first pod or a replacement head's sidecar would submit the seen job again.
 */
import { describe, expect, it } from 'vitest';
import { attachOnlyMarkKey, type DecisionInput, type OperatorMemory, type RayJob } from '../../src/index.ts';
import { CLUSTER, found, headPod, healthyCluster, inState, JOB_ID, run, submitterJob } from './fixtures.ts';

const KEY = attachOnlyMarkKey(CLUSTER, JOB_ID);
const unmarked: OperatorMemory = { attachOnlyMarked: undefined };
const marks = (d: ReturnType<typeof run>) => d.actions.filter((a) => a.type === 'markSubmittersAttachOnly');

type Case = { name: string; input: () => Partial<DecisionInput> & { rayJob: RayJob }; marked: boolean };
const k8s = (status: Record<string, unknown> = {}) => ({ rayJob: inState('Running', 'K8sJobMode', status), ...healthyCluster(), submitterJob: submitterJob() });
const sidecar = (status: Record<string, unknown> = {}) => ({ rayJob: inState('Running', 'SidecarMode', status), ...healthyCluster(), headPods: [headPod()] });

const cases: Case[] = [
  { name: 'K8sJobMode, Ray first answers RUNNING (CR jobStatus "")', input: () => ({ ...k8s({ jobStatus: '' }), dashboard: found('RUNNING'), memory: unmarked }), marked: true },
  { name: 'K8sJobMode, Ray first answers PENDING', input: () => ({ ...k8s({ jobStatus: '' }), dashboard: found('PENDING'), memory: unmarked }), marked: true },
  { name: 'SidecarMode, Ray first answers RUNNING', input: () => ({ ...sidecar({ jobStatus: '' }), dashboard: found('RUNNING'), memory: unmarked }), marked: true },
  {
    name: 'K8sJobMode, CR records RUNNING, dashboard unreachable, the operator restarted (memory empty)',
    input: () => ({ ...k8s(), dashboard: { kind: 'unreachable', reason: 'HTTP 503' }, memory: unmarked }),
    marked: true,
  },
  {
    name: 'K8sJobMode, the head was replaced: CR RUNNING, dashboard "not found" (head-lost verdict, still marked)',
    input: () => ({ ...k8s(), dashboard: { kind: 'not-found' }, memory: unmarked }),
    marked: true,
  },
  { name: 'K8sJobMode, the mark already written for this attempt', input: () => ({ ...k8s(), dashboard: found('RUNNING'), memory: { attachOnlyMarked: { key: KEY } } }), marked: false },
  {
    name: 'K8sJobMode, a mark written for another attempt only',
    input: () => ({ ...k8s(), dashboard: found('RUNNING'), memory: { attachOnlyMarked: { key: attachOnlyMarkKey('other-cluster', 'other-id') } } }),
    marked: true,
  },
  { name: 'K8sJobMode, never seen: CR jobStatus "", Ray does not know the ID yet', input: () => ({ ...k8s({ jobStatus: '' }), dashboard: { kind: 'not-found' }, memory: unmarked }), marked: false },
  {
    name: 'Failed (head lost), the mark not yet written, the submitter Job still active (its pod may be retried)',
    input: () => ({ ...k8s({ jobDeploymentStatus: 'Failed', reason: 'AppFailed' }), dashboard: { kind: 'not-found' }, memory: unmarked }),
    marked: true,
  },
  {
    name: 'Failed, the submitter Job finished (no pod will start again)',
    input: () => ({ ...k8s({ jobDeploymentStatus: 'Failed', reason: 'AppFailed' }), submitterJob: submitterJob({ type: 'Failed', at: 50 }), dashboard: { kind: 'not-found' }, memory: unmarked }),
    marked: false,
  },
  {
    name: 'Complete, SidecarMode (the head is never recreated)',
    input: () => ({ ...sidecar({ jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' }), dashboard: found('SUCCEEDED'), memory: unmarked }),
    marked: false,
  },
  { name: 'HTTPMode: no submitter pod to tell', input: () => ({ rayJob: inState('Running', 'HTTPMode'), ...healthyCluster(), dashboard: found('RUNNING'), memory: unmarked }), marked: false },
];

describe('the attach-only mark of the submitter-state ConfigMap', () => {
  it.each(cases)('$name: marked=$marked', ({ input, marked }) => {
    const d = run(input());
    const got = marks(d);
    expect(got).toHaveLength(marked ? 1 : 0);
    if (!marked) return;
    expect(got[0]).toMatchObject({
      key: KEY,
      configMap: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'rayjob-sample-submitter-state', namespace: 'default', ownerReferences: [expect.objectContaining({ kind: 'RayJob', controller: true })] },
        data: { [KEY]: 'true' },
      },
    });
    // The mark is a side write: it neither forces the status to be written first nor adds a second status write.
    expect(d.writeStatusFirst).toBe(d.actions.some((a) => a.type === 'stopRayJob' || a.type === 'deleteCluster' || a.type === 'deleteSubmitterJob'));
  });

  it('is asked for again on every reconcile until the executor remembers it written', () => {
    const input = { ...k8s({ jobStatus: '' }), dashboard: found('RUNNING'), memory: unmarked };
    const d1 = run(input);
    expect(marks(d1)).toHaveLength(1);
    expect(d1.memory.attachOnlyMarked).toBeUndefined();
    const next = { ...input, rayJob: { ...input.rayJob, status: d1.status } };
    // (the fixtures assume a written mark unless told otherwise)
    expect(marks(run({ ...next, memory: { ...d1.memory, ...unmarked } }))).toHaveLength(1);
    expect(marks(run({ ...next, memory: { ...d1.memory, attachOnlyMarked: { key: KEY } } }))).toHaveLength(0);
  });
});
