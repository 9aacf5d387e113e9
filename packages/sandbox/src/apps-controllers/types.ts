// The slices of apps/v1 Deployment and ReplicaSet the controllers read and write.
import type { Condition, KubeObject, Pod } from '../kube-objects/types.ts';

export interface PodTemplate { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Pod['spec'] }

export interface LabelSelector { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> }

export interface ReplicaSet extends KubeObject {
  spec: { replicas?: number; minReadySeconds?: number; selector: LabelSelector; template: PodTemplate };
  status?: { replicas: number; fullyLabeledReplicas?: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number; conditions?: Condition[] };
}

export interface DeploymentCondition extends Condition { lastUpdateTime?: string }

export interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplate;
    strategy?: { type?: 'RollingUpdate' | 'Recreate'; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: {
    observedGeneration?: number; replicas?: number; updatedReplicas?: number; readyReplicas?: number; availableReplicas?: number; unavailableReplicas?: number;
    conditions?: DeploymentCondition[]; collisionCount?: number;
  };
}

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
export const podTemplateHashLabel = 'pod-template-hash';

/** Whether labels satisfy a selector (matchLabels and the In/NotIn/Exists/DoesNotExist expressions). */
export function selectorMatches(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (have[key] !== value) return false;
  for (const e of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, e.key);
    const value = have[e.key] ?? '';
    if (e.operator === 'In' && !(present && (e.values ?? []).includes(value))) return false;
    if (e.operator === 'NotIn' && present && (e.values ?? []).includes(value)) return false;
    if (e.operator === 'Exists' && !present) return false;
    if (e.operator === 'DoesNotExist' && present) return false;
  }
  return true;
}

export const controllerUid = (object: KubeObject): string | undefined => object.metadata.ownerReferences?.find((r) => r.controller === true)?.uid;

const podReady = (pod: Pod): boolean => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Ready for at least minReadySeconds (kube's "available"); `now` in ms. */
export function podAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!podReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(pod.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '');
  return Number.isFinite(since) && now - since >= minReadySeconds * 1000;
}

export const isPodReady = podReady;

/** Active pods count toward replicas: not finished and not being deleted. */
export const podActive = (pod: Pod): boolean =>
  pod.metadata.deletionTimestamp === undefined && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
