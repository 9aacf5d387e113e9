// RFC 6902 JSON Patch and RFC 7386 JSON Merge Patch, applied to a copy.
export type PatchResult = { ok: true; value: unknown } | { ok: false; message: string };

type Json = unknown;

const decodePointer = (p: string): string[] =>
  p === '' ? [] : p.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function getAt(doc: Json, path: string[]): { found: boolean; value?: Json } {
  let cur: Json = doc;
  for (const seg of path) {
    if (Array.isArray(cur)) {
      const i = Number(seg);
      if (!Number.isInteger(i) || i < 0 || i >= cur.length) return { found: false };
      cur = cur[i];
    } else if (cur !== null && typeof cur === 'object' && seg in (cur as object)) {
      cur = (cur as Record<string, Json>)[seg];
    } else return { found: false };
  }
  return { found: true, value: cur };
}

function parentOf(doc: Json, path: string[]): Json {
  return getAt(doc, path.slice(0, -1)).value;
}

export function applyJsonPatch(original: Json, ops: unknown): PatchResult {
  if (!Array.isArray(ops)) return { ok: false, message: 'json patch must be an array of operations' };
  let doc: Json = structuredClone(original);
  const set = (path: string[], value: Json, insert: boolean): string | undefined => {
    if (path.length === 0) {
      doc = value;
      return undefined;
    }
    const parent = parentOf(doc, path);
    const last = path[path.length - 1] as string;
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(i) || i < 0 || i > parent.length || (!insert && i === parent.length)) return `index ${last} out of range`;
      if (insert) parent.splice(i, 0, value);
      else parent[i] = value;
      return undefined;
    }
    if (parent === null || typeof parent !== 'object') return `doc is missing path: "/${path.join('/')}": missing value`;
    // kube-apiserver's JSON patch (evanphx/json-patch v4) lets `replace` set a key the object lacks: Ray's
    // autoscaler relies on it, replacing `scaleStrategy` on worker groups that have none.
    (parent as Record<string, Json>)[last] = value;
    return undefined;
  };
  const remove = (path: string[]): string | undefined => {
    const parent = parentOf(doc, path);
    const last = path[path.length - 1] as string;
    if (Array.isArray(parent)) {
      const i = Number(last);
      if (!Number.isInteger(i) || i < 0 || i >= parent.length) return `index ${last} out of range`;
      parent.splice(i, 1);
      return undefined;
    }
    if (parent === null || typeof parent !== 'object' || !(last in (parent as object))) return `unable to remove nonexistent key: ${last}: missing value`;
    delete (parent as Record<string, Json>)[last];
    return undefined;
  };
  for (const raw of ops) {
    const op = raw as { op?: string; path?: string; value?: Json; from?: string };
    if (typeof op.path !== 'string') return { ok: false, message: 'json patch operation is missing "path"' };
    const path = decodePointer(op.path);
    let err: string | undefined;
    switch (op.op) {
      case 'add':
        err = set(path, structuredClone(op.value), true);
        break;
      case 'replace':
        err = set(path, structuredClone(op.value), false);
        break;
      case 'remove':
        err = remove(path);
        break;
      case 'test': {
        const got = getAt(doc, path);
        if (!got.found || JSON.stringify(got.value) !== JSON.stringify(op.value)) err = `testing value /${path.join('/')} failed: test failed`;
        break;
      }
      case 'move':
      case 'copy': {
        const from = decodePointer(op.from ?? '');
        const got = getAt(doc, from);
        if (!got.found) {
          err = `${op.op} operation does not apply: doc is missing from path: ${op.from ?? ''}`;
          break;
        }
        if (op.op === 'move') err = remove(from);
        err ??= set(path, structuredClone(got.value), true);
        break;
      }
      default:
        err = `Unexpected kind: ${String(op.op)}`;
    }
    if (err) return { ok: false, message: err };
  }
  return { ok: true, value: doc };
}

export function applyMergePatch(original: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const base: Record<string, Json> =
    original !== null && typeof original === 'object' && !Array.isArray(original) ? structuredClone(original as Record<string, Json>) : {};
  for (const [k, v] of Object.entries(patch as Record<string, Json>)) {
    if (v === null) delete base[k];
    else base[k] = applyMergePatch(base[k], v);
  }
  return base;
}
