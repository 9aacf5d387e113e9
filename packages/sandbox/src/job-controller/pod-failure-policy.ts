// Matches a failed pod against a Job's podFailurePolicy the way the Kubernetes Job controller does:
// rules in order, the first match wins; exit-code rules look at terminated containers with a
// non-zero code, condition rules at the pod's conditions. Messages are Kubernetes' own wording.
import type { ContainerStatus, Job, Pod } from '../kube-objects/types.ts';

export type PolicyVerdict =
  | { action: 'none' }
  | { action: 'Ignore' }
  | { action: 'Count' }
  | { action: 'FailJob'; message: string };

function matchingContainer(statuses: ContainerStatus[] | undefined, requirement: NonNullable<NonNullable<Job['spec']['podFailurePolicy']>['rules'][number]['onExitCodes']>): ContainerStatus | undefined {
  for (const status of statuses ?? []) {
    const terminated = status.state.terminated;
    if (terminated === undefined || terminated.exitCode === 0) continue;
    if (requirement.containerName !== undefined && requirement.containerName !== status.name) continue;
    const listed = requirement.values.includes(terminated.exitCode);
    if (requirement.operator === 'In' ? listed : requirement.operator === 'NotIn' ? !listed : false) return status;
  }
  return undefined;
}

export function matchPodFailurePolicy(job: Job, pod: Pod): PolicyVerdict {
  const rules = job.spec.podFailurePolicy?.rules;
  if (rules === undefined) return { action: 'none' };
  const namespace = pod.metadata.namespace ?? '';
  const podName = pod.metadata.name ?? '';
  for (const [index, rule] of rules.entries()) {
    if (rule.onExitCodes !== undefined) {
      const container = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes)
        ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
      if (container === undefined) continue;
      if (rule.action === 'FailJob') {
        const code = container.state.terminated?.exitCode ?? 0;
        return { action: 'FailJob', message: `Container ${container.name} for pod ${namespace}/${podName} failed with exit code ${code} matching FailJob rule at index ${index}` };
      }
      if (rule.action === 'Ignore' || rule.action === 'Count') return { action: rule.action };
    } else if (rule.onPodConditions !== undefined) {
      const condition = (pod.status?.conditions ?? []).find((c) =>
        rule.onPodConditions?.some((pattern) => pattern.type === c.type && (pattern.status ?? 'True') === c.status));
      if (condition === undefined) continue;
      if (rule.action === 'FailJob') {
        return { action: 'FailJob', message: `Pod ${namespace}/${podName} has condition ${condition.type} matching FailJob rule at index ${index}` };
      }
      if (rule.action === 'Ignore' || rule.action === 'Count') return { action: rule.action };
    }
  }
  return { action: 'none' };
}
