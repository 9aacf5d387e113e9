// Bench-only: turns the API requests a counting proxy saw into counts by verb and resource, and finds no-op
// writes (an update or patch after which the object is the same as before, resourceVersion aside).
import { isDeepStrictEqual } from 'node:util';
import type { ProxiedRequest } from './counting-proxy.ts';

export interface Classified {
  verb: string;
  resource: string;
}

/** `/apis/ray.io/v1/namespaces/ns/rayjobs/x/status` -> { verb: 'update', resource: 'rayjobs/status' }. */
export function classify(r: Pick<ProxiedRequest, 'method' | 'path'>): Classified {
  const [pathname = '', query = ''] = r.path.split('?');
  const parts = pathname.split('/').filter(Boolean);
  let i = parts[0] === 'api' ? 2 : 3;
  if (parts[i] === 'namespaces' && parts.length > i + 2) i += 2;
  const resource = parts[i] ?? pathname;
  const named = parts.length > i + 1;
  const sub = parts[i + 2];
  const full = sub ? `${resource}/${sub}` : resource;
  const verbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: named ? 'delete' : 'deletecollection' };
  const verb = r.method === 'GET' ? (/(^|&)watch=(true|1)/.test(query) ? 'watch' : named ? 'get' : 'list') : (verbs[r.method] ?? r.method.toLowerCase());
  return { verb, resource: full };
}

export const isWrite = (verb: string): boolean => ['create', 'update', 'patch', 'delete', 'deletecollection'].includes(verb);

type Obj = Record<string, unknown>;

/** The object minus what every write changes (resourceVersion) or what is bookkeeping (managedFields). */
function comparable(o: unknown): unknown {
  if (!o || typeof o !== 'object') return o;
  const copy = structuredClone(o) as Obj;
  const meta = copy.metadata as Obj | undefined;
  if (meta) {
    delete meta.resourceVersion;
    delete meta.managedFields;
  }
  return copy;
}

/** Dotted paths (2 levels deep) whose value differs between two objects. */
export function changedPaths(a: unknown, b: unknown, prefix = '', depth = 0): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (depth >= 2 || !a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return [prefix || '(root)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => changedPaths((a as Obj)[k], (b as Obj)[k], prefix ? `${prefix}.${k}` : k, depth + 1));
}

/** A write that empties the finalizers of an object being deleted (which the API server then removes). */
function releasesLastFinalizer(before: unknown, body: string | undefined): boolean {
  const meta = (before as { metadata?: { deletionTimestamp?: string; finalizers?: string[] } } | undefined)?.metadata;
  if (!meta?.deletionTimestamp || !(meta.finalizers ?? []).length) return false;
  try {
    const sent = (JSON.parse(body ?? '') as { metadata?: { finalizers?: unknown } }).metadata?.finalizers;
    return Array.isArray(sent) && sent.length === 0;
  } catch {
    return false;
  }
}

export interface WriteAnalysis {
  /** `verb resource` -> count. */
  byKind: Map<string, number>;
  writes: number;
  reads: number;
  /** Updates/patches that changed nothing (and the kind of each). */
  noOps: Array<{ kind: string; path: string; body: string }>;
  /** Updates/patches by the fields they changed (e.g. "rayjobs/status: status.jobStatus,status.startTime"). */
  changes: Map<string, number>;
  failed: number;
  /** Failed writes by `verb resource status (object)`. */
  failures: Map<string, number>;
  /**
   * RayJob status writes that record a new Ray status (jobStatus) while the RayJob stays Running: one per status of
   * the Ray job seen (PENDING, RUNNING, a terminal status before the submitter exits), as KubeRay writes too.
   */
  rayStatusWrites: number;
}

type Status = { jobStatus?: string; jobDeploymentStatus?: string } | undefined;

/** A successful rayjobs/status write that changed jobStatus with the deployment Running before and after. */
export function recordsRayStatus(r: Pick<ProxiedRequest, 'path' | 'status' | 'before' | 'response'>, resource: string): boolean {
  if (resource !== 'rayjobs/status' || r.status >= 300 || !r.response) return false;
  let after: Status;
  try {
    after = (JSON.parse(r.response) as { status?: Status }).status;
  } catch {
    return false;
  }
  const before = (r.before as { status?: Status } | undefined)?.status;
  return before?.jobDeploymentStatus === 'Running' && after?.jobDeploymentStatus === 'Running' && (before?.jobStatus ?? '') !== (after?.jobStatus ?? '');
}

/** The object a write is about: the name in its path, or for a create the metadata.name of its body. */
export function objectName(r: Pick<ProxiedRequest, 'path' | 'body'>, verb: string): string {
  if (verb === 'create') {
    try {
      return (JSON.parse(r.body ?? '{}') as { metadata?: { name?: string; generateName?: string } }).metadata?.name ?? '';
    } catch {
      return '';
    }
  }
  const parts = (r.path.split('?')[0] ?? '').split('/').filter(Boolean);
  return parts.at(-1) === 'status' ? parts.at(-2) ?? '' : parts.at(-1) ?? '';
}

/**
 * `generalize` turns run-specific names into their shape (e.g. `k8s-003-x7k2p-head-svc` -> `<rayjob>-xxxxx-head-svc`)
 * so the same write of every lifecycle is one row; failures then say which object failed.
 */
export function analyse(requests: ProxiedRequest[], generalize: (text: string) => string = (t) => t): WriteAnalysis {
  const byKind = new Map<string, number>();
  const changes = new Map<string, number>();
  const noOps: WriteAnalysis['noOps'] = [];
  const failures = new Map<string, number>();
  let writes = 0;
  let reads = 0;
  let failed = 0;
  let rayStatusWrites = 0;
  for (const r of requests) {
    const { verb, resource } = classify(r);
    const kind = `${verb} ${resource}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    if (!isWrite(verb)) {
      reads++;
      continue;
    }
    writes++;
    if (recordsRayStatus(r, resource)) rayStatusWrites++;
    if (r.status >= 300) {
      failed++;
      const f = `${kind} ${r.status} (${generalize(objectName(r, verb)) || '?'})`;
      failures.set(f, (failures.get(f) ?? 0) + 1);
    }
    if ((verb === 'update' || verb === 'patch') && r.status < 300 && r.before !== undefined && r.response) {
      let after: unknown;
      try {
        after = JSON.parse(r.response);
      } catch {
        continue;
      }
      const paths = changedPaths(comparable(r.before), comparable(after));
      if (paths.length === 0 && releasesLastFinalizer(r.before, r.body)) {
        // The API server deletes the object and answers with it as it was: the write did change it.
        const released = `${kind}: metadata.finalizers (last removed: deleted)`;
        changes.set(released, (changes.get(released) ?? 0) + 1);
        continue;
      }
      if (paths.length === 0) noOps.push({ kind, path: r.path, body: r.body ?? '' });
      const key = generalize(`${kind}: ${paths.length ? paths.join(',') : '(nothing)'}`);
      changes.set(key, (changes.get(key) ?? 0) + 1);
    }
  }
  return { byKind, writes, reads, noOps, changes, failed, failures, rayStatusWrites };
}
