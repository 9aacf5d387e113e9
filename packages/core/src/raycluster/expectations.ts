import type { Pod } from '../schema/index.ts';

/**
 * Scale expectations (KubeRay's, §7.5): every Pod the controller creates or deletes is remembered until the
 * informer cache shows it (create) or no longer shows it (delete). While a group has an unmet expectation it is
 * not reconciled, so a cache that lags behind our own writes never makes us create or delete a Pod twice.
 * A created Pod that never shows up is forgotten after a timeout (30 s). The state lives in the controller's
 * memory; these functions only read and return it.
 */

/** The head's expectations use the group "" (KubeRay's HeadGroup). */
export const HEAD_EXPECTATION_GROUP = '';

export interface ScaleExpectation {
  group: string;
  podName: string;
  action: 'create' | 'delete';
  /** Milliseconds since the epoch, from the caller's clock. */
  recordedAt: number;
}

export type ScaleExpectations = readonly ScaleExpectation[];

function isMet(expectation: ScaleExpectation, podNames: ReadonlySet<string>, nowMs: number, timeoutSeconds: number): boolean {
  if (expectation.action === 'delete') return !podNames.has(expectation.podName);
  return podNames.has(expectation.podName) || nowMs - expectation.recordedAt > timeoutSeconds * 1000;
}

export interface ExpectationCheck {
  /** Groups (head = "") that still wait for the cache. */
  unsatisfiedGroups: Set<string>;
  /** The expectations still pending, to keep for the next reconcile. */
  remaining: ScaleExpectation[];
}

export function checkExpectations(expectations: ScaleExpectations, pods: readonly Pod[], now: Date, timeoutSeconds: number): ExpectationCheck {
  const names = new Set(pods.map((p) => p.metadata.name ?? ''));
  const remaining = expectations.filter((e) => !isMet(e, names, now.getTime(), timeoutSeconds));
  return { unsatisfiedGroups: new Set(remaining.map((e) => e.group)), remaining };
}
