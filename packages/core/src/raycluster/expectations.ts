/**
 * Scale expectations (KubeRay's, §7.5): the Pods the controller created that its cache does not show yet, or
 * deleted that it still shows. While a group has one, it is not reconciled, so a cache that lags behind our own
 * writes never makes us create or delete a Pod twice. The operator keeps them (kube-runtime's expectations,
 * observed from informer events, a create expiring after settings.expectationsTimeoutSeconds) and passes the
 * pending ones in as data; the plan only reads which groups they hold back.
 */

/** The head's expectations use the group "" (KubeRay's HeadGroup). */
export const HEAD_EXPECTATION_GROUP = '';

export interface ScaleExpectation {
  group: string;
  podName: string;
  action: 'create' | 'delete';
}

/** The expectations still pending this pass (neither observed nor expired). */
export type ScaleExpectations = readonly ScaleExpectation[];

/** Groups (head = "") that still wait for the cache. */
export function groupsWithPendingExpectations(pending: ScaleExpectations): Set<string> {
  return new Set(pending.map((e) => e.group));
}
