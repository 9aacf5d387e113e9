// Pure pod status computation: phase from container states (the kubelet's rules), and the
// kubelet-owned conditions. Conditions other agents own (DisruptionTarget from eviction, custom
// readiness gates) are carried over from the live object untouched.
import type { Condition, ContainerStatus, Pod, PodStatus } from '../kube-objects/types.ts';

export const kubeletConditionTypes = ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready', 'PodScheduled'] as const;

export type PodPhase = NonNullable<PodStatus['phase']>;

export function podPhase(restartPolicy: 'Always' | 'OnFailure' | 'Never', initialized: boolean, statuses: ContainerStatus[], deleting: boolean): PodPhase {
  if (!initialized) return 'Pending';
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const status of statuses) {
    if (status.state.running !== undefined) running += 1;
    else if (status.state.terminated !== undefined) {
      stopped += 1;
      if (status.state.terminated.exitCode === 0) succeeded += 1;
    } else if (status.lastState.terminated !== undefined) stopped += 1;
    else waiting += 1;
  }
  if (deleting && running === 0 && waiting === 0) return succeeded === statuses.length ? 'Succeeded' : 'Failed';
  if (waiting > 0 && running === 0 && stopped === 0) return 'Pending';
  if (running > 0) return 'Running';
  if (waiting > 0) return 'Pending';
  if (restartPolicy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  if (restartPolicy === 'Never') return 'Failed';
  return 'Running';
}

function condition(previous: Condition[], type: string, status: Condition['status'], nowIso: string, reason?: string, message?: string): Condition {
  const before = previous.find((c) => c.type === type);
  const lastTransitionTime = before !== undefined && before.status === status ? before.lastTransitionTime ?? nowIso : nowIso;
  const out: Condition = { type, status, lastProbeTime: null, lastTransitionTime };
  if (reason !== undefined) out.reason = reason;
  if (message !== undefined) out.message = message;
  return out;
}

export interface PodConditionsInput {
  previous: Condition[];
  sandboxReady: boolean;
  initStatuses: ContainerStatus[];
  initialized: boolean;
  statuses: ContainerStatus[];
  phase: PodPhase;
  nowIso: string;
}

export function podConditions(input: PodConditionsInput): Condition[] {
  const { previous, nowIso } = input;
  const notReady = input.statuses.filter((s) => !s.ready).map((s) => s.name);
  const incompleteInit = input.initStatuses.filter((s) => s.state.terminated?.exitCode !== 0).map((s) => s.name);
  const completed = input.phase === 'Succeeded' || input.phase === 'Failed';
  const readyStatus: Condition['status'] = notReady.length === 0 && !completed ? 'True' : 'False';
  const readyReason = readyStatus === 'True' ? undefined : completed ? 'PodCompleted' : 'ContainersNotReady';
  const readyMessage = readyStatus === 'True' || completed ? undefined : `containers with unready status: [${notReady.join(' ')}]`;
  const kubeletOwned: Condition[] = [
    condition(previous, 'PodReadyToStartContainers', input.sandboxReady && !completed ? 'True' : 'False', nowIso),
    input.initialized
      ? condition(previous, 'Initialized', 'True', nowIso, completed && input.initStatuses.length > 0 ? 'PodCompleted' : undefined)
      : condition(previous, 'Initialized', 'False', nowIso, 'ContainersNotInitialized', `containers with incomplete status: [${incompleteInit.join(' ')}]`),
    condition(previous, 'Ready', readyStatus, nowIso, readyReason, readyMessage),
    condition(previous, 'ContainersReady', readyStatus, nowIso, readyReason, readyMessage),
    condition(previous, 'PodScheduled', 'True', nowIso),
  ];
  const foreign = previous.filter((c) => !(kubeletConditionTypes as readonly string[]).includes(c.type));
  return [...kubeletOwned, ...foreign];
}

/** Carries conditions the kubelet does not own over from the live pod. */
export function mergeForeignConditions(live: Pod, computed: Condition[]): Condition[] {
  const owned = computed.filter((c) => (kubeletConditionTypes as readonly string[]).includes(c.type));
  const foreign = (live.status?.conditions ?? []).filter((c) => !(kubeletConditionTypes as readonly string[]).includes(c.type));
  return [...owned, ...foreign];
}

const ownedConditionKeys = (status: PodStatus | undefined): string =>
  (status?.conditions ?? [])
    .filter((c) => (kubeletConditionTypes as readonly string[]).includes(c.type))
    .map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`)
    .sort()
    .join('|');

/**
 * Whether the live status disagrees with what the kubelet computed, in the parts the kubelet owns (phase and its
 * conditions). Someone else changed them (the node lifecycle controller marks pods Ready=False when a node stops
 * heartbeating): the kubelet's status manager writes its own view back, as a real kubelet does.
 */
export function kubeletStatusDiffers(live: PodStatus | undefined, computed: PodStatus): boolean {
  return (live?.phase ?? '') !== (computed.phase ?? '') || ownedConditionKeys(live) !== ownedConditionKeys(computed);
}
