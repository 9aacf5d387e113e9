// The Deployment controller's decision, pure (kube-controller-manager's rules, simplified to one step per pass):
// the ReplicaSet for the current template is named <deployment>-<pod-template-hash>; RollingUpdate scales it up
// within maxSurge and old ones down while at least replicas-maxUnavailable stay available; Recreate scales old
// ones to zero and waits for their pods to go before starting new ones. Status and conditions as kube reports them.
import type { ReplicaSet, Deployment, DeploymentCondition, PodTemplate } from './types.ts';
import { desiredReplicasAnnotation, maxReplicasAnnotation, podTemplateHashLabel, revisionAnnotation } from './types.ts';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * pod-template-hash: FNV-1a (32 bit) of the template and the collision count, its decimal digits mapped onto
 * Kubernetes' safe alphabet (rand.SafeEncodeString), like "5d8f7c9b6". The hashed bytes differ from Go's object
 * dump, so values differ from a real cluster's; they are just as stable.
 */
export function podTemplateHash(template: PodTemplate, collisionCount = 0): string {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(canonical(template) + (collisionCount > 0 ? String(collisionCount) : ''), 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return [...String(hash)].map((d) => safeAlphabet[d.charCodeAt(0) % safeAlphabet.length]).join('');
}

/** The template without the hash label, to compare a ReplicaSet's template with the Deployment's. */
const withoutHash = (template: PodTemplate): PodTemplate => {
  const labels = { ...(template.metadata?.labels ?? {}) };
  delete labels[podTemplateHashLabel];
  return { ...template, metadata: { ...template.metadata, labels } };
};

export const templatesEqual = (a: PodTemplate, b: PodTemplate): boolean => canonical(withoutHash(a)) === canonical(withoutHash(b));

function resolvePercent(value: number | string | undefined, fallback: string, total: number, roundUp: boolean): number {
  const raw = value ?? fallback;
  if (typeof raw === 'number') return raw;
  const percent = Number(raw.replace('%', ''));
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function rollingLimits(deployment: Deployment): { maxSurge: number; maxUnavailable: number } {
  const replicas = deployment.spec.replicas ?? 1;
  const rolling = deployment.spec.strategy?.rollingUpdate;
  const maxSurge = resolvePercent(rolling?.maxSurge, '25%', replicas, true);
  let maxUnavailable = resolvePercent(rolling?.maxUnavailable, '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** The ReplicaSet a Deployment creates for its current template. */
export function newReplicaSetFor(deployment: Deployment, revision: number, replicas: number): ReplicaSet {
  const hash = podTemplateHash(deployment.spec.template, deployment.status?.collisionCount ?? 0);
  const name = deployment.metadata.name ?? '';
  const labels = { ...(deployment.spec.template.metadata?.labels ?? {}), [podTemplateHashLabel]: hash };
  const { maxSurge } = rollingLimits(deployment);
  const desired = deployment.spec.replicas ?? 1;
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name: `${name}-${hash}`, namespace: deployment.metadata.namespace, labels,
      annotations: { [revisionAnnotation]: String(revision), [desiredReplicasAnnotation]: String(desired), [maxReplicasAnnotation]: String(desired + (deployment.spec.strategy?.type === 'Recreate' ? 0 : maxSurge)) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: deployment.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas,
      ...(deployment.spec.minReadySeconds !== undefined && { minReadySeconds: deployment.spec.minReadySeconds }),
      selector: { ...deployment.spec.selector, matchLabels: { ...(deployment.spec.selector.matchLabels ?? {}), [podTemplateHashLabel]: hash } },
      template: { ...deployment.spec.template, metadata: { ...deployment.spec.template.metadata, labels } },
    },
  };
}

export const revisionOf = (rs: ReplicaSet): number => Number(rs.metadata.annotations?.[revisionAnnotation] ?? 0) || 0;

export interface DeploymentPlan {
  /** Create the new ReplicaSet (with this many replicas) when none matches the template. */
  createNew: ReplicaSet | undefined;
  /** ReplicaSet name -> new spec.replicas. */
  scale: Map<string, number>;
  /** Old ReplicaSets beyond revisionHistoryLimit, at zero replicas: delete. */
  prune: string[];
}

/** One step of a rollout. `all` are the ReplicaSets the Deployment controls; `oldPods` counts live pods of old ones. */
export function planRollout(deployment: Deployment, all: ReplicaSet[], oldPods: number): DeploymentPlan {
  const replicas = deployment.spec.replicas ?? 1;
  const current = all.find((rs) => templatesEqual(rs.spec.template, deployment.spec.template));
  const old = all.filter((rs) => rs !== current).sort((a, b) => revisionOf(a) - revisionOf(b));
  const scale = new Map<string, number>();
  const plan: DeploymentPlan = { createNew: undefined, scale, prune: [] };
  const limit = deployment.spec.revisionHistoryLimit ?? 10;
  const idle = old.filter((rs) => (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0);
  plan.prune = idle.slice(0, Math.max(0, idle.length - limit)).map((rs) => rs.metadata.name ?? '');
  if (deployment.spec.paused === true) return plan;
  const nextRevision = Math.max(0, ...all.map(revisionOf)) + 1;
  if (deployment.spec.strategy?.type === 'Recreate') {
    for (const rs of old) if ((rs.spec.replicas ?? 0) !== 0) scale.set(rs.metadata.name ?? '', 0);
    const oldGone = oldPods === 0 && old.every((rs) => (rs.spec.replicas ?? 0) === 0);
    if (current === undefined) plan.createNew = newReplicaSetFor(deployment, nextRevision, oldGone ? replicas : 0);
    else if (oldGone && (current.spec.replicas ?? 0) !== replicas) scale.set(current.metadata.name ?? '', replicas);
    return plan;
  }
  const { maxSurge, maxUnavailable } = rollingLimits(deployment);
  const total = all.reduce((sum, rs) => sum + (rs.spec.replicas ?? 0), 0);
  const newReplicas = current?.spec.replicas ?? 0;
  let target = newReplicas;
  if (newReplicas > replicas) target = replicas;
  else if (newReplicas < replicas) target = Math.min(replicas, newReplicas + Math.max(0, replicas + maxSurge - total));
  if (current === undefined) plan.createNew = newReplicaSetFor(deployment, nextRevision, old.length === 0 ? replicas : target);
  else if (target !== newReplicas) scale.set(current.metadata.name ?? '', target);
  // Old ones go down while enough stay available: pods not available are removed first, at no cost.
  const available = all.reduce((sum, rs) => sum + (rs.status?.availableReplicas ?? 0), 0);
  let budget = Math.max(0, available - (replicas - maxUnavailable));
  for (const rs of old) {
    const have = rs.spec.replicas ?? 0;
    if (have === 0) continue;
    const unavailable = Math.max(0, have - (rs.status?.availableReplicas ?? 0));
    const cut = Math.min(have, unavailable + budget);
    budget -= Math.max(0, cut - unavailable);
    if (cut > 0) scale.set(rs.metadata.name ?? '', have - cut);
  }
  return plan;
}

function condition(previous: DeploymentCondition[] | undefined, type: string, status: DeploymentCondition['status'], reason: string, message: string, nowIso: string): DeploymentCondition {
  const before = previous?.find((c) => c.type === type);
  const same = before?.status === status;
  const unchanged = same && before?.reason === reason && before.message === message;
  return { type, status, lastUpdateTime: unchanged ? before.lastUpdateTime ?? nowIso : nowIso, lastTransitionTime: same ? before.lastTransitionTime ?? nowIso : nowIso, reason, message };
}

/** Status from the ReplicaSets as observed (kube computes it from their statuses, not from pods). */
export function deploymentStatus(deployment: Deployment, all: ReplicaSet[], nowIso: string): NonNullable<Deployment['status']> {
  const replicas = deployment.spec.replicas ?? 1;
  const current = all.find((rs) => templatesEqual(rs.spec.template, deployment.spec.template));
  const sum = (pick: (rs: ReplicaSet) => number | undefined): number => all.reduce((total, rs) => total + (pick(rs) ?? 0), 0);
  const available = sum((rs) => rs.status?.availableReplicas);
  const updated = current?.status?.replicas ?? 0;
  const totalReplicas = sum((rs) => rs.status?.replicas);
  const { maxUnavailable } = rollingLimits(deployment);
  const minAvailable = replicas - (deployment.spec.strategy?.type === 'Recreate' ? 0 : maxUnavailable);
  const previous = deployment.status?.conditions;
  const name = current?.metadata.name ?? '';
  const complete = current !== undefined && updated === replicas && totalReplicas === replicas && (current.status?.availableReplicas ?? 0) === replicas;
  const progressing = complete
    ? condition(previous, 'Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}" has successfully progressed.`, nowIso)
    : previous?.some((c) => c.type === 'Progressing') === true && current !== undefined
      ? condition(previous, 'Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`, nowIso)
      : condition(previous, 'Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`, nowIso);
  const availableCondition = available >= minAvailable
    ? condition(previous, 'Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', nowIso)
    : condition(previous, 'Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', nowIso);
  return {
    ...(deployment.status?.collisionCount !== undefined && { collisionCount: deployment.status.collisionCount }),
    observedGeneration: deployment.metadata.generation ?? 1,
    replicas: totalReplicas,
    updatedReplicas: updated,
    readyReplicas: sum((rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicas - available),
    conditions: [availableCondition, progressing],
  };
}
