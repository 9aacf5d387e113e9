// Field sets in managedFields' FieldsV1 form — `{"f:spec": {"f:replicas": {}}, "f:metadata": {"f:labels":
// {".": {}, "f:app": {}}}}` — built from a value and its type, walked as paths, and edited; plus reading and
// deleting the value at a path, and the path as kube-apiserver prints it in conflicts (`.spec.containers[name="main"].image`).
import type { FieldType } from './field-types.ts';

export type FieldTree = { [key: string]: FieldTree };
/** Path elements as FieldsV1 keys (`f:x`, `k:{...}`, `v:...`); a trailing "." means the node itself. */
export type FieldPath = string[];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A key field's value; a port's protocol defaults to TCP, as kube-apiserver's defaulting gives it before keying. */
const keyValue = (item: Obj, k: string): unknown => item[k] ?? (k === 'protocol' ? 'TCP' : undefined);

/** Go's json.Marshal of a key object: fields sorted by name. */
export function keyOf(item: Obj, keys: string[]): string {
  const present = [...keys].sort().filter((k) => keyValue(item, k) !== undefined);
  return `k:{${present.map((k) => `${JSON.stringify(k)}:${JSON.stringify(keyValue(item, k))}`).join(',')}}`;
}

/**
 * The field set a value sets, at a place of the given type. `mapMembers`: a map with entries is itself a member
 * (`"."`), as in an update's set; an apply's set names only the entries.
 */
export function fieldSetOf(value: unknown, type: FieldType, mapMembers = true): FieldTree {
  if (Array.isArray(value)) {
    if (type.list.type === 'atomic') return {};
    const out: FieldTree = {};
    if (type.list.type === 'set') {
      for (const v of value) out[`v:${JSON.stringify(v)}`] = {};
      return out;
    }
    const keys = type.list.keys;
    for (const item of value) {
      if (!isObj(item)) continue;
      out[keyOf(item, keys)] = { '.': {}, ...fieldSetOf(item, { ...type.item(), object: 'struct' }, mapMembers) };
    }
    return out;
  }
  if (!isObj(value) || type.object === 'atomic') return {};
  // A map with entries is itself a member too (`"."`); an empty one is just a leaf.
  const out: FieldTree = mapMembers && type.object === 'map' && Object.keys(value).length > 0 ? { '.': {} } : {};
  for (const [k, v] of Object.entries(value)) out[`f:${k}`] = fieldSetOf(v, type.child(k), mapMembers);
  return out;
}

/** Every owned path: leaves, and "."-terminated paths of members (map or list item) that have children. */
export function* pathsOf(tree: FieldTree, prefix: FieldPath = []): Generator<FieldPath> {
  for (const [key, child] of Object.entries(tree)) {
    if (key === '.') yield [...prefix, '.'];
    else if (Object.keys(child).length === 0) yield [...prefix, key];
    else yield* pathsOf(child, [...prefix, key]);
  }
}

export function hasPath(tree: FieldTree, path: FieldPath): boolean {
  let node: FieldTree | undefined = tree;
  for (const el of path) {
    node = node[el];
    if (node === undefined) return false;
  }
  return true;
}

export function addPath(tree: FieldTree, path: FieldPath): void {
  let node = tree;
  for (const el of path) node = node[el] ??= {};
}

/** Removes a path; parents left empty are removed too (an empty node would read as an owned leaf). */
export function removePath(tree: FieldTree, path: FieldPath): void {
  if (path.length === 0) return;
  const [head, ...rest] = path as [string, ...string[]];
  const child = tree[head];
  if (child === undefined) return;
  if (rest.length === 0) {
    delete tree[head];
    return;
  }
  removePath(child, rest);
  if (Object.keys(child).length === 0) delete tree[head];
}

/** The node (and everything under it) at a path, removed. */
export function removeSubtree(tree: FieldTree, path: FieldPath): void {
  removePath(tree, path);
}

export const isEmptyTree = (tree: FieldTree): boolean => Object.keys(tree).length === 0;

function findIndex(list: unknown[], el: string): number {
  if (el.startsWith('v:')) {
    const want = el.slice(2);
    return list.findIndex((v) => JSON.stringify(v) === want);
  }
  if (el.startsWith('k:')) {
    const want = JSON.parse(el.slice(2)) as Obj;
    return list.findIndex((v) => isObj(v) && Object.entries(want).every(([k, x]) => JSON.stringify(keyValue(v, k)) === JSON.stringify(x)));
  }
  if (el.startsWith('i:')) return Number(el.slice(2));
  return -1;
}

/** The value at a path (without a trailing "."), or found=false. */
export function valueAt(root: unknown, path: FieldPath): { found: boolean; value?: unknown } {
  let node: unknown = root;
  for (const el of path) {
    if (el === '.') break;
    if (el.startsWith('f:')) {
      if (!isObj(node) || !(el.slice(2) in node)) return { found: false };
      node = node[el.slice(2)];
    } else {
      if (!Array.isArray(node)) return { found: false };
      const i = findIndex(node, el);
      if (i < 0 || i >= node.length) return { found: false };
      node = node[i];
    }
  }
  return { found: true, value: node };
}

/** Deletes the value at a path (a field, a list item, a set value); false when it was not there. */
export function deleteAt(root: unknown, path: FieldPath): boolean {
  const clean = path[path.length - 1] === '.' ? path.slice(0, -1) : path;
  if (clean.length === 0) return false;
  const parent = valueAt(root, clean.slice(0, -1));
  if (!parent.found) return false;
  const last = clean[clean.length - 1] as string;
  if (last.startsWith('f:')) {
    if (!isObj(parent.value) || !(last.slice(2) in parent.value)) return false;
    delete parent.value[last.slice(2)];
    return true;
  }
  if (!Array.isArray(parent.value)) return false;
  const i = findIndex(parent.value, last);
  if (i < 0) return false;
  parent.value.splice(i, 1);
  return true;
}

/** kube-apiserver's (structured-merge-diff's) path text: `.spec.containers[name="main"].image`, `.metadata.finalizers[="x"]`. */
export function pathString(path: FieldPath): string {
  return path
    .filter((el) => el !== '.')
    .map((el) => {
      if (el.startsWith('f:')) return `.${el.slice(2)}`;
      if (el.startsWith('v:')) return `[=${el.slice(2)}]`;
      if (el.startsWith('i:')) return `[${el.slice(2)}]`;
      const key = JSON.parse(el.slice(2)) as Obj;
      return `[${Object.entries(key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    })
    .join('');
}
