// metadata.managedFields as kube-apiserver keeps them: who set which field, by Apply or Update. An update moves the
// fields it changed to its manager (taking them from the others) and drops removed fields from everyone; an apply
// makes the applied field set its manager's, refuses (409) to change a field another manager owns unless forced
// (then takes it), merges lists by their type, and removes fields it applied before, no longer applies and
// nobody else owns. The sandbox starts tracking an object when a client first names a field manager (kubectl and
// Helm always do) or applies; an object never tracked is apply's "before-first-apply" legacy case.
import type { KubeObject } from '../../store/types.ts';
import { timeNow } from '../encodings/microtime.ts';
import { deepEqual } from '../registry/object-meta.ts';
import { gvKey, type ResourceType } from '../registry/resource-types.ts';
import { ApiError } from '../errors/status.ts';
import { addPath, deleteAt, fieldSetOf, hasPath, keyOf, pathsOf, pathString, removePath, valueAt, type FieldPath, type FieldTree } from './field-set.ts';
import { typeOfResource, type FieldType } from './field-types.ts';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldTree;
  subresource?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Metadata fields the server owns: never in anyone's field set (structured-merge-diff strips them). */
const serverMeta = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields'];
export const beforeFirstApply = 'before-first-apply';

/** The fields an object sets, as seen through the main resource or its status subresource. */
export function objectFields(rt: ResourceType, obj: unknown, subresource?: string, mapMembers = true): FieldTree {
  const tree = fieldSetOf(obj, typeOfResource(rt), mapMembers);
  delete tree['f:apiVersion'];
  delete tree['f:kind'];
  const meta = tree['f:metadata'];
  if (meta) {
    for (const f of serverMeta) delete meta[`f:${f}`];
    if (Object.keys(meta).length === 0) delete tree['f:metadata'];
  }
  if (rt.statusSplit) {
    if (subresource === 'status') return tree['f:status'] ? { 'f:status': tree['f:status'] } : {};
    delete tree['f:status'];
  }
  return tree;
}

const entriesOf = (obj: KubeObject | undefined): ManagedFieldsEntry[] => (Array.isArray(obj?.metadata.managedFields) ? structuredClone(obj.metadata.managedFields as ManagedFieldsEntry[]) : []);
const sameOwner = (e: ManagedFieldsEntry, manager: string, operation: string, subresource: string | undefined): boolean =>
  e.manager === manager && e.operation === operation && (e.subresource ?? '') === (subresource ?? '');
const nonEmpty = (entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] => entries.filter((e) => Object.keys(e.fieldsV1 ?? {}).length > 0);

/** The manager of a request that names none: the User-Agent's product ("kubectl/v1.32 ..." -> "kubectl"). */
export function defaultManager(userAgent: string | undefined): string {
  const product = (userAgent ?? '').split('/')[0]?.trim() ?? '';
  return (product === '' ? 'unknown' : product).slice(0, 128);
}

export interface Manager {
  name: string;
  /** Named by the client (fieldManager): tracking starts for an object that has none yet. */
  explicit: boolean;
}

/** managedFields of a created object: the creator owns everything it set (defaults included), if it named itself. */
export function createdFields(rt: ResourceType, obj: KubeObject, manager: Manager | undefined, now: number): ManagedFieldsEntry[] | undefined {
  if (!manager?.explicit) return undefined;
  const fields = objectFields(rt, obj);
  if (Object.keys(fields).length === 0) return undefined;
  return [{ manager: manager.name, operation: 'Update', apiVersion: gvKey(rt.group, rt.version), time: timeNow(now), fieldsType: 'FieldsV1', fieldsV1: fields }];
}

/** managedFields after an update (PUT, or a JSON/merge/strategic patch) from old to next. */
export function updatedFields(rt: ResourceType, old: KubeObject, next: KubeObject, manager: Manager | undefined, subresource: string | undefined, now: number): ManagedFieldsEntry[] | undefined {
  const incoming = next.metadata.managedFields;
  const previous = entriesOf(old);
  // A client resets with [{}], or writes managedFields itself (kubectl's client-side to server-side upgrade).
  if (Array.isArray(incoming) && incoming.length === 1 && deepEqual(incoming[0], {})) return undefined;
  if (Array.isArray(incoming) && incoming.length > 0 && !deepEqual(incoming, old.metadata.managedFields)) return incoming as ManagedFieldsEntry[];
  if (manager === undefined || (previous.length === 0 && !manager.explicit)) return previous.length === 0 ? undefined : previous;
  const before = objectFields(rt, old, subresource);
  const after = objectFields(rt, next, subresource);
  const changed: FieldPath[] = [];
  for (const p of pathsOf(after)) {
    if (p[p.length - 1] === '.') {
      if (!hasPath(before, p)) changed.push(p);
      continue;
    }
    const was = valueAt(old, p);
    if (!was.found || !deepEqual(was.value, valueAt(next, p).value)) changed.push(p);
  }
  const removed = [...pathsOf(before)].filter((p) => !hasPath(after, p));
  if (changed.length === 0 && removed.length === 0) return previous.length === 0 ? undefined : previous;
  const apiVersion = gvKey(rt.group, rt.version);
  let own = previous.find((e) => sameOwner(e, manager.name, 'Update', subresource));
  for (const e of previous) {
    for (const p of [...changed, ...removed]) if (e !== own || removed.includes(p)) removePath(e.fieldsV1, p);
  }
  if (!own) {
    own = { manager: manager.name, operation: 'Update', apiVersion, fieldsType: 'FieldsV1', fieldsV1: {}, ...(subresource && { subresource }) };
    previous.push(own);
  }
  for (const p of changed) addPath(own.fieldsV1, p);
  own.time = timeNow(now);
  own.apiVersion = apiVersion;
  const out = nonEmpty(previous);
  return out.length === 0 ? undefined : out;
}

function mergeValue(live: unknown, applied: unknown, type: FieldType): unknown {
  if (Array.isArray(applied)) {
    if (type.list.type === 'atomic' || !Array.isArray(live)) return structuredClone(applied);
    if (type.list.type === 'set') return [...live, ...applied.filter((v) => !live.some((l) => deepEqual(l, v)))];
    const keys = type.list.keys;
    const out = structuredClone(live);
    for (const item of applied) {
      const key = isObj(item) ? keyOf(item, keys) : undefined;
      const idx = key === undefined ? -1 : out.findIndex((l) => isObj(l) && keyOf(l, keys) === key);
      if (idx >= 0) out[idx] = mergeValue(out[idx], item, type.item());
      else out.push(structuredClone(item));
    }
    return out;
  }
  if (isObj(applied) && isObj(live) && type.object !== 'atomic') {
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(applied)) out[k] = mergeValue(live[k], v, type.child(k));
    return out;
  }
  return structuredClone(applied);
}

interface Conflict {
  entry: ManagedFieldsEntry;
  path: FieldPath;
}

/** printManager of kube-apiserver's conflict message. */
function describeManager(e: ManagedFieldsEntry): string {
  let text = JSON.stringify(e.manager);
  if (e.subresource) text += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${text} using ${e.apiVersion}` : text;
}

function conflictError(conflicts: Conflict[]): ApiError {
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.entry)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) message = `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0]!.entry)}: ${pathString(conflicts[0]!.path)}`;
  else {
    const byManager = new Map<string, { entry: ManagedFieldsEntry; paths: FieldPath[] }>();
    for (const c of conflicts) {
      const id = JSON.stringify({ manager: c.entry.manager, operation: c.entry.operation, apiVersion: c.entry.apiVersion, subresource: c.entry.subresource });
      const group = byManager.get(id) ?? { entry: c.entry, paths: [] };
      group.paths.push(c.path);
      byManager.set(id, group);
    }
    const lines = [...byManager.keys()].sort().flatMap((id) => {
      const g = byManager.get(id)!;
      return [`conflicts with ${describeManager(g.entry)}:`, ...g.paths.map((p) => `- ${pathString(p)}`)];
    });
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 });
}

const kubectlManager = 'kubectl';
const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** kube-apiserver's lastAppliedManager: a field in kubectl's client-side last-applied configuration. */
function inLastApplied(rt: ResourceType, live: KubeObject | undefined, path: FieldPath): boolean {
  const text = (live?.metadata.annotations as Record<string, string> | undefined)?.[lastAppliedAnnotation];
  if (text === undefined) return false;
  try {
    return hasPath(objectFields(rt, JSON.parse(text), undefined, false), path);
  } catch {
    return false;
  }
}

export interface ApplyResult {
  object: KubeObject;
  managedFields: ManagedFieldsEntry[];
}

/** Server-side apply of `applied` by `manager` over `live` (absent: a create). Throws 409 on conflicts unless `force`. */
export function applyConfiguration(rt: ResourceType, live: KubeObject | undefined, applied: KubeObject, manager: string, force: boolean, subresource: string | undefined, now: number): ApplyResult {
  const config = structuredClone(applied);
  if (rt.statusSplit && subresource !== 'status') delete config.status;
  const fields = objectFields(rt, config, subresource, false);
  const apiVersion = gvKey(rt.group, rt.version);
  const entries = entriesOf(live);
  if (live && entries.length === 0) {
    const legacy = objectFields(rt, live, subresource);
    if (Object.keys(legacy).length > 0) entries.push({ manager: beforeFirstApply, operation: 'Update', apiVersion, time: timeNow(now), fieldsType: 'FieldsV1', fieldsV1: legacy });
  }
  const own = entries.find((e) => sameOwner(e, manager, 'Apply', subresource));
  const others = entries.filter((e) => e !== own);
  const conflicts: Conflict[] = [];
  if (live) {
    for (const p of pathsOf(fields)) {
      if (p[p.length - 1] === '.') continue;
      const current = valueAt(live, p);
      if (!current.found || deepEqual(current.value, valueAt(config, p).value)) continue;
      for (const e of others) if (hasPath(e.fieldsV1, p)) conflicts.push({ entry: e, path: p });
    }
  }
  const remaining = manager === kubectlManager ? conflicts.filter((c) => !inLastApplied(rt, live, c.path)) : conflicts;
  // kubectl taking over fields it applied client-side (its last-applied annotation) is not a conflict.
  if (remaining.length > 0 && !force) throw conflictError(remaining);
  for (const c of conflicts) removePath(c.entry.fieldsV1, c.path);
  const type = typeOfResource(rt);
  const merged = (live ? mergeValue(live, config, type) : structuredClone(config)) as KubeObject;
  if (own) {
    const previous = [...pathsOf(own.fieldsV1)];
    const ownedElsewhere = (p: FieldPath): boolean => others.some((e) => hasPath(e.fieldsV1, p));
    // Whole members first (list items, maps), then leaves.
    for (const p of previous.filter((q) => q[q.length - 1] === '.')) {
      const node = p.slice(0, -1);
      if (!hasPath(fields, node) && !ownedElsewhere(node)) deleteAt(merged, node);
    }
    for (const p of previous.filter((q) => q[q.length - 1] !== '.')) {
      if (hasPath(fields, p) || ownedElsewhere(p) || !deleteAt(merged, p)) continue;
      // A map or struct the removal emptied goes too, unless applied or owned (kube-apiserver leaves no `labels: {}`).
      for (let parent = p.slice(0, -1); parent.length > 0; parent = parent.slice(0, -1)) {
        const value = valueAt(merged, parent);
        if (!value.found || !isObj(value.value) || Object.keys(value.value).length > 0 || hasPath(fields, parent) || ownedElsewhere(parent)) break;
        deleteAt(merged, parent);
      }
    }
  }
  const annotations = merged.metadata.annotations as Record<string, string> | undefined;
  if (manager === kubectlManager && annotations?.[lastAppliedAnnotation] !== undefined) annotations[lastAppliedAnnotation] = JSON.stringify(applied);
  const mine: ManagedFieldsEntry = { manager, operation: 'Apply', apiVersion, time: timeNow(now), fieldsType: 'FieldsV1', fieldsV1: fields, ...(subresource && { subresource }) };
  // The entry just written goes last, as kube-apiserver orders them.
  const managedFields = [...nonEmpty(entries.filter((e) => e !== own)), mine];
  return { object: merged, managedFields };
}
