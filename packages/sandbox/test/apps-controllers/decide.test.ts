import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/kube-objects/types.ts';
import { decideReplicaSet } from '../../src/apps-controllers/decide-replicaset.ts';
import { deploymentStatus, newReplicaSetFor, planRollout, podTemplateHash, rollingLimits } from '../../src/apps-controllers/decide-deployment.ts';
import type { Deployment, ReplicaSet } from '../../src/apps-controllers/types.ts';

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });
const deployment = (image: string, replicas = 4, extra: Partial<Deployment['spec']> = {}): Deployment => ({
  metadata: { name: 'web', namespace: 'default', uid: 'd1', generation: 2 },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template(image), ...extra },
});
const rsOf = (d: Deployment, revision: number, replicas: number, available: number, image?: string): ReplicaSet => {
  const rs = newReplicaSetFor(image === undefined ? d : { ...d, spec: { ...d.spec, template: template(image) } }, revision, replicas);
  return { ...rs, status: { replicas, availableReplicas: available, readyReplicas: available } };
};
const pod = (name: string, ready: boolean, created: string, nodeName?: string): Pod => ({
  metadata: { name, creationTimestamp: created, labels: { app: 'web' } },
  spec: { containers: [], ...(nodeName !== undefined && { nodeName }) },
  status: { phase: ready ? 'Running' : 'Pending', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

describe('ReplicaSet decisions', () => {
  const rs = (replicas: number): ReplicaSet => ({ metadata: { name: 'web-1', generation: 3 }, spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: template('v1') } });
  it('creates the missing pods and reports what is there', () => {
    const decision = decideReplicaSet(rs(3), [pod('a', true, '2026-01-01T00:00:00Z', 'n')], 0);
    expect(decision).toMatchObject({ create: 2, delete: [], status: { replicas: 1, readyReplicas: 1, availableReplicas: 1, fullyLabeledReplicas: 1, observedGeneration: 3 } });
  });
  it('deletes unscheduled, then not-ready, then the newest pods first', () => {
    const pods = [pod('old-ready', true, '2026-01-01T00:00:00Z', 'n'), pod('new-ready', true, '2026-01-02T00:00:00Z', 'n'), pod('not-ready', false, '2026-01-01T00:00:00Z', 'n'), pod('unscheduled', false, '2026-01-01T00:00:00Z')];
    expect(decideReplicaSet(rs(1), pods, 0).delete).toEqual(['unscheduled', 'not-ready', 'new-ready']);
  });
});

describe('Deployment rollouts', () => {
  it('names the ReplicaSet <deployment>-<pod-template-hash> with the hash in labels and selector', () => {
    const d = deployment('v1');
    const rs = newReplicaSetFor(d, 1, 4);
    const hash = podTemplateHash(d.spec.template);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.spec.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec.template.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '4', 'deployment.kubernetes.io/max-replicas': '5' });
    expect(podTemplateHash(template('v2'))).not.toBe(hash);
  });

  it.each([
    { replicas: 4, maxSurge: undefined, maxUnavailable: undefined, expected: { maxSurge: 1, maxUnavailable: 1 } },
    { replicas: 10, maxSurge: '30%', maxUnavailable: '30%', expected: { maxSurge: 3, maxUnavailable: 3 } },
    { replicas: 1, maxSurge: 0, maxUnavailable: 0, expected: { maxSurge: 0, maxUnavailable: 1 } },
    { replicas: 1, maxSurge: undefined, maxUnavailable: undefined, expected: { maxSurge: 1, maxUnavailable: 0 } },
  ])('rolling limits for $replicas replicas, surge $maxSurge, unavailable $maxUnavailable', ({ replicas, maxSurge, maxUnavailable, expected }) => {
    expect(rollingLimits(deployment('v1', replicas, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } }))).toEqual(expected);
  });

  it('a first rollout creates the ReplicaSet at full size', () => {
    expect(planRollout(deployment('v1'), [], 0).createNew?.spec.replicas).toBe(4);
  });

  it('a new template surges the new ReplicaSet and scales the old one down within maxUnavailable', () => {
    const d = deployment('v2');
    const old = rsOf(d, 1, 4, 4, 'v1');
    const first = planRollout(d, [old], 4);
    expect(first.createNew?.spec.replicas).toBe(1);
    expect(first.createNew?.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(first.scale.get(old.metadata.name ?? '')).toBe(3);
    // Later: the new one has 1 available; the old one keeps 3: surge again and cut one more.
    const next = planRollout(d, [rsOf(d, 1, 3, 3, 'v1'), rsOf(d, 2, 1, 1)], 3);
    expect([...next.scale.entries()].sort()).toEqual([[rsOf(d, 1, 0, 0, 'v1').metadata.name, 2], [rsOf(d, 2, 0, 0).metadata.name, 2]].sort());
  });

  it('Recreate scales old ReplicaSets to zero and starts the new one only when their pods are gone', () => {
    const d = deployment('v2', 2, { strategy: { type: 'Recreate' } });
    const old = rsOf(d, 1, 2, 2, 'v1');
    expect(planRollout(d, [old], 2)).toMatchObject({ createNew: { spec: { replicas: 0 } } });
    expect(planRollout(d, [old], 2).scale.get(old.metadata.name ?? '')).toBe(0);
    const drained = { ...old, spec: { ...old.spec, replicas: 0 } };
    expect(planRollout(d, [drained, rsOf(d, 2, 0, 0)], 1).scale.size).toBe(0);
    expect(planRollout(d, [drained, rsOf(d, 2, 0, 0)], 0).scale.get(rsOf(d, 2, 0, 0).metadata.name ?? '')).toBe(2);
  });

  it('reports status and the Available/Progressing conditions as kube words them', () => {
    const d = deployment('v1', 2);
    const done = deploymentStatus(d, [rsOf(d, 1, 2, 2)], 'now');
    expect(done).toMatchObject({ observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 0 });
    expect(done.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rsOf(d, 1, 2, 2).metadata.name ?? ''}" has successfully progressed.`],
    ]);
    const starting = deploymentStatus(d, [rsOf(d, 1, 2, 0)], 'now');
    expect(starting.conditions?.[0]).toMatchObject({ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' });
  });

  it('keeps old idle ReplicaSets up to revisionHistoryLimit', () => {
    const d = deployment('v9', 1, { revisionHistoryLimit: 1 });
    const idle = [1, 2, 3].map((r) => rsOf(d, r, 0, 0, `v${r}`));
    expect(planRollout(d, [...idle, rsOf(d, 4, 1, 1)], 0).prune).toEqual([idle[0]?.metadata.name, idle[1]?.metadata.name]);
  });
});
