// The write paths (create, replace, delete) with the semantics operators rely on: generateName, uid,
// resourceVersion compare-and-swap, generation on spec change only, the status split, finalizers and
// deletionTimestamp, graceful pod deletion. HTTP handlers and the garbage collector both call these.
import type { KubeObject } from '../../store/types.ts';
import { createdFields, updatedFields, type Manager, type ManagedFieldsEntry } from '../apply/managed-fields.ts';
import type { UserInfo } from '../auth/authenticate.ts';
import { pruneBuiltinUnknown } from '../encodings/builtin-pruning.ts';
import type { ApiContext } from './context.ts';
import { invalidValue } from '../errors/field-errors.ts';
import { timeNow } from '../encodings/microtime.ts';
import { clone, deepEqual, keepServerMeta, specChanged, stampCreate, validateName, validatePathSegmentName } from '../registry/object-meta.ts';
import { gvKey, type ResourceType } from '../registry/resource-types.ts';
import {
  alreadyExists,
  badRequest,
  conflict,
  conflictMessage,
  forbidden,
  invalid,
  notFound,
  successStatus,
  type StatusBody,
} from '../errors/status.ts';

export type Propagation = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: Propagation;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  /** Who asks, for admission (absent for the server's own writes, which skip it). */
  user?: UserInfo;
}

const namespacesBucket = '/namespaces';
const protectedNamespaces = new Set(['default', 'kube-system', 'kube-public']);

/** Stored object -> what this API version shows. */
export function present(rt: ResourceType, obj: KubeObject): KubeObject {
  if (rt.fromStorage) return rt.fromStorage(obj);
  const apiVersion = gvKey(rt.group, rt.version);
  if (obj.apiVersion === apiVersion && obj.kind === rt.kind) return obj;
  return { ...obj, apiVersion, kind: rt.kind };
}

function decodeChecks(rt: ResourceType, body: KubeObject): void {
  const apiVersion = gvKey(rt.group, rt.version);
  if (body.apiVersion !== undefined && body.apiVersion !== apiVersion) {
    throw badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  if (body.kind !== undefined && body.kind !== rt.kind) {
    throw badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (${rt.kind})`);
  }
  const message = rt.decodeCheck?.(body);
  if (message) throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: ${message}`);
}

function normalizeBody(rt: ResourceType, raw: unknown): KubeObject {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: the body must be a JSON object`);
  const body = clone(raw as KubeObject);
  if (body.metadata === undefined || body.metadata === null) body.metadata = {};
  if (typeof body.metadata !== 'object') throw badRequest('metadata must be an object');
  return body;
}

/**
 * Drops unknown fields (a built-in's by its k8s.io type, a custom resource's by its schema, while defaulting) and
 * answers as kube-apiserver does per fieldValidation: Strict (what kubectl sends) is a 400, Ignore says nothing,
 * Warn (the default) adds one `unknown field "path"` warning per field.
 */
function defaultAndCheckFields(rt: ResourceType, obj: KubeObject, fieldValidation: string | undefined, warnings: string[] | undefined): void {
  const pruned = [...(rt.crdName ? [] : pruneBuiltinUnknown(obj as Record<string, unknown>, gvKey(rt.group, rt.version), rt.kind)), ...(rt.applyDefaults?.(obj) ?? [])];
  if (pruned.length === 0 || fieldValidation === 'Ignore') return;
  const list = pruned.map((f) => `unknown field "${f}"`);
  if (fieldValidation === 'Strict') throw badRequest(`${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: strict decoding error: ${list.join(', ')}`);
  warnings?.push(...list);
}

function validateOrThrow(rt: ResourceType, obj: KubeObject, old: KubeObject | undefined): void {
  const causes = [
    ...(old ? [] : rt.group === 'rbac.authorization.k8s.io' ? validatePathSegmentName(obj.metadata.name, obj.metadata.generateName) : validateName(obj.metadata.name, obj.metadata.generateName)),
    ...(rt.validate?.(obj, old ? { operation: 'update', old } : { operation: 'create' }) ?? []),
  ];
  if (causes.length > 0) throw invalid(rt.kind, rt.group, obj.metadata.name ?? obj.metadata.generateName ?? '', causes);
}

export function createObject(
  ctx: ApiContext,
  rt: ResourceType,
  namespace: string | undefined,
  raw: unknown,
  dryRun = false,
  fieldValidation?: string,
  /** Collects the Warning headers the response should carry. */
  warnings?: string[],
  /** Who asks, for admission (absent for the server's own writes, which skip it). */
  requester?: UserInfo,
  /** managedFields: an apply's entries, or the creating request's field manager. */
  fields?: { entries?: ManagedFieldsEntry[]; manager?: Manager },
): KubeObject {
  const body = normalizeBody(rt, raw);
  decodeChecks(rt, body);
  if (rt.namespaced) {
    const ns = namespace ?? body.metadata.namespace ?? 'default';
    if (body.metadata.namespace !== undefined && body.metadata.namespace !== ns) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    body.metadata.namespace = ns;
    const nsObj = ctx.store.get(namespacesBucket, '', ns);
    if (!nsObj) throw notFound('namespaces', '', ns);
    if (nsObj.metadata.deletionTimestamp) {
      throw forbidden(`${rt.plural} "${body.metadata.name ?? ''}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);
    }
  } else {
    delete body.metadata.namespace;
  }
  body.apiVersion = gvKey(rt.group, rt.version);
  body.kind = rt.kind;
  stampCreate(body, ctx.now());
  if (rt.statusSplit && rt.crdName) delete body.status;
  defaultAndCheckFields(rt, body, fieldValidation, warnings);
  rt.prepareCreate?.(body);
  validateOrThrow(rt, body, undefined);
  const managedFields = fields?.entries ?? createdFields(rt, body, fields?.manager, ctx.now());
  if (managedFields) body.metadata.managedFields = managedFields;
  if (requester && ctx.admit) {
    ctx.admit({ operation: 'CREATE', rt, namespace: body.metadata.namespace ?? '', name: body.metadata.name ?? '', object: body, user: requester, dryRun, ...(warnings && { warnings }) });
  }
  const stored = rt.toStorage ? rt.toStorage(body) : body;
  if (dryRun) {
    if (ctx.store.get(rt.bucket, stored.metadata.namespace ?? '', stored.metadata.name ?? '')) {
      throw alreadyExists(rt.plural, rt.group, stored.metadata.name ?? '');
    }
    return present(rt, stored);
  }
  const result = ctx.store.create(rt.bucket, stored);
  if (!result.ok) throw alreadyExists(rt.plural, rt.group, stored.metadata.name ?? '');
  return present(rt, result.value);
}

export interface ReplaceOptions {
  subresource?: 'status';
  dryRun?: boolean;
  /** Internal writers (GC) may update without a resourceVersion even for custom resources. */
  internal?: boolean;
  fieldValidation?: string;
  /** Collects the Warning headers the response should carry. */
  warnings?: string[];
  /** Who asks, for admission (absent for the server's own writes, which skip it). */
  user?: UserInfo;
  /** The request's field manager: the fields it changes become its own (absent: managedFields are kept). */
  manager?: Manager;
  /** Set by server-side apply: the object's managedFields after the apply. */
  managedFields?: ManagedFieldsEntry[];
}

export interface WriteOutcome {
  object: KubeObject;
  /** True when the write removed the object (last finalizer gone on an object being deleted). */
  removed: boolean;
}

export function replaceObject(
  ctx: ApiContext,
  rt: ResourceType,
  namespace: string,
  name: string,
  raw: unknown,
  options: ReplaceOptions = {},
): WriteOutcome {
  const body = normalizeBody(rt, raw);
  decodeChecks(rt, body);
  const storedOld = ctx.store.get(rt.bucket, namespace, name);
  if (!storedOld) throw notFound(rt.plural, rt.group, name);
  const old = present(rt, storedOld);
  if (body.metadata.name !== undefined && body.metadata.name !== name) {
    throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
  }
  if (body.metadata.uid && body.metadata.uid !== old.metadata.uid) {
    throw conflictMessage(rt.plural, rt.group, name, `Precondition failed: UID in precondition: ${body.metadata.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
  }
  const expectedRv = body.metadata.resourceVersion;
  if (!expectedRv && rt.crdName && !options.internal) {
    throw invalid(rt.kind, rt.group, name, [invalidValue('metadata.resourceVersion', 0, 'must be specified for an update')]);
  }
  let next: KubeObject;
  if (options.subresource === 'status') {
    next = clone(old);
    if (body.status === undefined) delete next.status;
    else next.status = body.status;
  } else {
    next = body;
    keepServerMeta(next, old);
    if (rt.statusSplit) {
      if (old.status === undefined) delete next.status;
      else next.status = clone(old.status);
    }
  }
  next.apiVersion = gvKey(rt.group, rt.version);
  next.kind = rt.kind;
  next.metadata.resourceVersion = old.metadata.resourceVersion;
  if (options.subresource !== 'status') defaultAndCheckFields(rt, next, options.fieldValidation, options.warnings);
  // Custom resources without a status subresource count status changes too, as the real server does.
  const changed = specChanged(next, old) || (Boolean(rt.crdName) && !rt.statusSplit && !deepEqual(next.status, old.status));
  if (changed) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
  validateOrThrow(rt, next, old);
  if (expectedRv && expectedRv !== old.metadata.resourceVersion) throw conflict(rt.plural, rt.group, name);
  const managedFields = options.managedFields ?? updatedFields(rt, old, next, options.manager, options.subresource, ctx.now());
  if (managedFields) next.metadata.managedFields = managedFields;
  else delete next.metadata.managedFields;
  if (options.user && ctx.admit) {
    ctx.admit({
      operation: 'UPDATE',
      rt,
      namespace,
      name,
      ...(options.subresource && { subresource: options.subresource }),
      object: next,
      oldObject: old,
      user: options.user,
      dryRun: options.dryRun ?? false,
      ...(options.warnings && { warnings: options.warnings }),
    });
  }

  // Last finalizer removed from an object being deleted: it goes away now.
  if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
    if (options.dryRun) return { object: next, removed: true };
    if (!ctx.store.remove(rt.bucket, namespace, name).ok) throw notFound(rt.plural, rt.group, name);
    return { object: lastState(rt, next), removed: true };
  }
  // A write that changes nothing does not bump resourceVersion (no event), as the real server does.
  if (deepEqual(next, old)) return { object: old, removed: false };
  const stored = rt.toStorage ? rt.toStorage(next) : next;
  if (options.dryRun) return { object: present(rt, stored), removed: false };
  const result = ctx.store.update(rt.bucket, stored, storedOld.metadata.resourceVersion);
  if (!result.ok) throw conflict(rt.plural, rt.group, name);
  return { object: present(rt, result.value), removed: false };
}

export interface DeleteOutcome {
  code: 200 | 202;
  body: KubeObject | StatusBody;
}

function podGraceSeconds(ctx: ApiContext, pod: KubeObject, requested: number | undefined): number {
  if (!ctx.podGracefulDeletion) return 0;
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const phase = ((pod.status ?? {}) as Record<string, unknown>).phase;
  // Unscheduled or finished pods have nothing to stop: the real server deletes them at once.
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  if (requested !== undefined) return Math.max(0, requested);
  return typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
}

export function deleteObject(ctx: ApiContext, rt: ResourceType, namespace: string, name: string, options: DeleteOptions = {}): DeleteOutcome {
  const stored = ctx.store.get(rt.bucket, namespace, name);
  if (!stored) throw notFound(rt.plural, rt.group, name);
  const current = present(rt, stored);
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== current.metadata.uid) {
    throw conflictMessage(rt.plural, rt.group, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw conflictMessage(rt.plural, rt.group, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in meta: ${current.metadata.resourceVersion ?? ''}`);
  }
  if (options.user && ctx.admit) ctx.admit({ operation: 'DELETE', rt, namespace, name, oldObject: current, user: options.user, dryRun: options.dryRun ?? false });
  const policy = options.propagationPolicy ?? rt.defaultPropagation;
  const finalizers = [...(current.metadata.finalizers ?? [])];
  if (policy === 'Foreground' && !finalizers.includes('foregroundDeletion') && !finalizers.includes('orphan')) finalizers.push('foregroundDeletion');
  if (policy === 'Orphan' && !finalizers.includes('orphan') && !finalizers.includes('foregroundDeletion')) finalizers.push('orphan');
  // Orphaning an object that owns nothing needs no finalizer round-trip.
  const ownsSomething = ctx.owners.dependentsOf(current.metadata.uid ?? '').length > 0;
  const effective = finalizers.filter((f) => ownsSomething || (f !== 'orphan' && f !== 'foregroundDeletion') || (current.metadata.finalizers ?? []).includes(f));
  const grace = rt.bucket === '/pods' ? podGraceSeconds(ctx, current, options.gracePeriodSeconds) : 0;
  // Namespaces are emptied first (by the namespace controller in src/gc), then removed.
  const isNamespace = rt.bucket === namespacesBucket;
  if (isNamespace && protectedNamespaces.has(name)) throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`);

  if (effective.length === 0 && grace === 0 && !isNamespace) {
    if (options.dryRun) return { code: 200, body: current };
    const gone = ctx.store.remove(rt.bucket, namespace, name);
    if (!gone.ok) throw notFound(rt.plural, rt.group, name);
    const out = present(rt, gone.value);
    return rt.crdName
      ? { code: 200, body: successStatus({ name, group: rt.group, kind: rt.plural, uid: current.metadata.uid ?? '' }) }
      : { code: 200, body: out };
  }
  // Pending deletion: mark it; finalizer owners (or the kubelet for graceful pods) finish the job.
  const next = clone(current);
  next.metadata.finalizers = effective;
  if (effective.length === 0) delete next.metadata.finalizers;
  const nowMs = ctx.now();
  const existingDeadline = next.metadata.deletionTimestamp ? Date.parse(next.metadata.deletionTimestamp) : Infinity;
  const deadline = nowMs + grace * 1000;
  if (deadline < existingDeadline) {
    next.metadata.deletionTimestamp = timeNow(deadline);
    next.metadata.deletionGracePeriodSeconds = grace;
  }
  if (deepEqual(next, current)) return { code: 202, body: current };
  if (options.dryRun) return { code: 202, body: next };
  const stored2 = rt.toStorage ? rt.toStorage(next) : next;
  const result = ctx.store.update(rt.bucket, stored2, current.metadata.resourceVersion);
  if (!result.ok) throw conflict(rt.plural, rt.group, name);
  return { code: 202, body: present(rt, result.value) };
}

/**
 * The answer to the write that removed an object (its last finalizer gone while deleting): the object as the write
 * left it, finalizers gone, at the version the write replaced — as kube-apiserver 1.32 answers (checked on
 * kube-reference): no new version a cache could show, and no finalizer for a client to read back.
 */
function lastState(rt: ResourceType, next: KubeObject): KubeObject {
  const { finalizers: _gone, ...metadata } = next.metadata;
  const last = { ...next, metadata };
  return present(rt, rt.toStorage ? rt.toStorage(last) : last);
}
