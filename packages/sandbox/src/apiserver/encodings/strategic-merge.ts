// Strategic merge patch for built-in kinds: maps merge, lists of named things merge by their key,
// primitive lists marked "merge" union, `$patch: delete|replace`, `$deleteFromPrimitiveList/x`,
// and kubectl's bookkeeping directives (`$setElementOrder/x`, `$retainKeys`) are honoured or dropped.

type Json = unknown;
type Obj = Record<string, Json>;

/** List fields that merge by a key, by field name (the patchMergeKey tags of the core types). */
export const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  ownerReferences: 'uid',
  conditions: 'type',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  readinessGates: 'conditionType',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  podIPs: 'ip',
  hostIPs: 'ip',
  addresses: 'type',
};

/** Primitive lists with patchStrategy "merge" (union). */
export const mergePrimitiveLists = new Set(['finalizers']);

function portKey(parentField: string): string {
  return parentField === 'service' ? 'port' : 'containerPort';
}

const isObj = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function mergeList(field: string, original: Json[], patch: Json[], context: string): Json[] {
  const key = field === 'ports' ? portKey(context) : mergeKeys[field];
  if (!key) {
    if (mergePrimitiveLists.has(field)) {
      const out = [...original];
      for (const v of patch) if (!out.includes(v)) out.push(v);
      return out;
    }
    return patch.filter((p) => !(isObj(p) && p.$patch !== undefined)).map((p) => strip(p));
  }
  if (patch.some((p) => isObj(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObj(p) && p.$patch === 'replace')).map((p) => strip(p));
  }
  const out = original.map((v) => structuredClone(v));
  for (const item of patch) {
    if (!isObj(item)) continue;
    const idx = out.findIndex((o) => isObj(o) && o[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeObject(out[idx] as Obj, item, field);
    else out.push(strip(item));
  }
  return out;
}

/** Remove directive keys from a value that is inserted as-is. */
function strip(v: Json): Json {
  if (Array.isArray(v)) return v.map(strip);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, val] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    out[k] = strip(val);
  }
  return out;
}

function mergeObject(original: Obj, patch: Obj, context: string): Obj {
  if (patch.$patch === 'replace') return strip(patch) as Obj;
  if (patch.$patch === 'delete') return {};
  const out: Obj = structuredClone(original);
  const retain = Array.isArray(patch.$retainKeys) ? new Set(patch.$retainKeys as string[]) : undefined;
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const drop = new Set(Array.isArray(v) ? v : []);
      if (Array.isArray(out[field])) out[field] = (out[field] as Json[]).filter((x) => !drop.has(x));
      continue;
    }
    if (k.startsWith('$')) continue;
    if (v === null) {
      delete out[k];
    } else if (isObj(v)) {
      if (v.$patch === 'delete') delete out[k];
      else out[k] = mergeObject(isObj(out[k]) ? (out[k] as Obj) : {}, v, k === 'spec' && context === 'service' ? 'service' : k);
    } else if (Array.isArray(v)) {
      out[k] = mergeList(k, Array.isArray(out[k]) ? (out[k] as Json[]) : [], v, context);
    } else {
      out[k] = v;
    }
  }
  if (retain) for (const k of Object.keys(out)) if (!retain.has(k)) delete out[k];
  return out;
}

/** `kind` lets service ports merge on `port` while container ports merge on `containerPort`. */
export function applyStrategicMergePatch(original: Json, patch: Json, kind: string): Json {
  if (!isObj(patch)) return structuredClone(patch);
  return mergeObject(isObj(original) ? original : {}, patch, kind === 'Service' ? 'service' : '');
}
