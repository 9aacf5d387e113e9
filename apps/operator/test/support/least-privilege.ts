// The verdict of the least-privilege check: the union of the operator's needs over the whole integration suite
// against each shipped RBAC (the Helm chart, the kustomize base). A needed permission no rule grants fails it, and
// so does a granted one no call needed, unless a path the suite cannot reach is its only user (the allow-list
// below, each entry with that path). An allow-listed permission the suite did use is reported, not failed: a
// path believed unreachable that a race reached in one run must not turn CI red, since the rule is granted either way.
import { compareWithGrants, permissionOf, type Grant, type Need, type Permission } from './rbac-derive.ts';

/** The namespace the operator is installed in and holds its Lease in: the chart's and the kustomize base's. */
export const operatorNamespace = 'rayjob-system';

/** What one test file's sandbox recorded (operator-calls.ts). */
export interface OperatorCallRecord {
  /** The test file, relative to apps/operator. */
  file: string;
  needs: Need[];
}

/** Permissions only paths no integration test takes use, each with that path. */
export const unreachedBySuite: ReadonlyMap<Permission, string> = new Map([
  ['ray.io|rayjobs|get', 'reads one RayJob after a conflict, outside the cache'],
  ['ray.io|rayclusters|update', 'clusterSelector / suspend changes written to a RayCluster'],
  ['batch|jobs|delete', 'deletionStrategy DeleteWorkers/DeleteCluster and suspend'],
  ['|pods|get', 'reading a head pod outside the cache'],
  ['|pods|patch', 'RayCluster controller: annotating the head pod (annotateHeadPod)'],
  ['|services|update', 'a head Service whose spec drifted'],
]);

/**
 * Permissions the suite reaches only when a race goes one way (used in some runs, not in others), each with the
 * race: neither unused nor stale when unused. Kept short: a deterministic test is better.
 */
export const reachedByRace: ReadonlyMap<Permission, string> = new Map([
  ['|services|get', 'adopting a head Service after a 409 on create: only when a create is retried before the informer showed the first (helm-install, under load)'],
  ['batch|jobs|get', 'adopting a submitter Job after a 409 on create: status-correctness (C19/C20) only when the create races the cache (seen in 1 of 2 whole runs)'],
  ['ray.io|rayclusters|get', 'api-faults\' lost create answer: a GET to adopt after the retried create\'s 409, unless the informer showed the cluster before the retry'],
]);

export interface Verdict {
  /** Empty when the shipped RBAC is exactly what the suite needed (plus the allow-list). */
  failures: string[];
  /** Allow-list entries this run used: remove them, or move them to the race list if only some runs do. */
  notices: string[];
  summary: string;
}

export function leastPrivilegeVerdict(needs: Need[], shipped: Record<string, Grant[]>, allowList: ReadonlyMap<Permission, string> = unreachedBySuite, raced: ReadonlyMap<Permission, string> = reachedByRace): Verdict {
  const failures: string[] = [];
  const notices: string[] = [];
  const needed = new Set(needs.map((n) => n.permission));
  for (const [where, grants] of Object.entries(shipped)) {
    const { missing, unused } = compareWithGrants(needs, grants);
    for (const m of missing) failures.push(`${where}: missing ${m}`);
    for (const u of unused.filter((e) => !allowList.has(permissionOf(e)) && !raced.has(permissionOf(e)))) failures.push(`${where}: unused ${u} (no call of the suite needed it: remove it, or add the path that needs it to the allow-list with a reason)`);
  }
  for (const [p, path] of allowList) {
    if (raced.has(p)) failures.push(`${p} is both allow-listed as unreached and as reached by a race; keep one`);
    if (needed.has(p)) notices.push(`allow-list entry ${p} ("${path}") was used in this run: remove the entry if every run uses it, or move it to the race list if only some do`);
    for (const [where, grants] of Object.entries(shipped)) {
      if (!grants.some((g) => g.permissions.has(p))) failures.push(`stale allow-list entry ${p}: ${where} does not grant it; remove the entry`);
    }
  }
  for (const [p] of raced) {
    for (const [where, grants] of Object.entries(shipped)) {
      if (!grants.some((g) => g.permissions.has(p))) failures.push(`stale race entry ${p}: ${where} does not grant it; remove the entry`);
    }
  }
  const summary = `${needed.size} permissions needed by the operator's calls across the suite; ${allowList.size} allow-listed as unreached, ${raced.size} as reached by a race`;
  return { failures, notices, summary };
}
