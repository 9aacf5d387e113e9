// What the server knows about each resource it serves: names for discovery, scope, storage bucket,
// subresources, and the hooks that give each kind its behaviour (defaults, validation, table columns).
import type { KubeObject } from '../../store/types.ts';
import type { StatusCause } from '../errors/status.ts';

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableShape {
  columns: ColumnDefinition[];
  cells(obj: KubeObject, now: number): unknown[];
}

export interface ValidationContext {
  operation: 'create' | 'update';
  old?: KubeObject;
}

export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Storage bucket; two API resources sharing one (core and events.k8s.io events) see the same objects. */
  bucket: string;
  /** Subresource names served under this resource (status, log, binding, eviction, proxy, scale). */
  subresources: string[];
  /** Whether `status` is split off: main endpoint ignores status, /status ignores everything else. */
  statusSplit: boolean;
  /** Stored form -> this API's form, and back (identity unless two APIs share a bucket). */
  fromStorage?(obj: KubeObject): KubeObject;
  toStorage?(obj: KubeObject): KubeObject;
  /** Fill defaults in place on a fresh copy (create and update); returns paths of unknown fields it dropped. */
  applyDefaults?(obj: KubeObject): string[] | void;
  /** Extra create-time preparation (e.g. pod status, job selector, service clusterIP). */
  prepareCreate?(obj: KubeObject): void;
  /** Validate the whole object; `ctx.old` on update. Return causes; non-empty means 422. */
  validate?(obj: KubeObject, ctx: ValidationContext): StatusCause[];
  /** Format checks that the real server does while decoding (MicroTime): message means 400. */
  decodeCheck?(obj: KubeObject): string | undefined;
  /** Strategic-merge-patch allowed (built-ins) or not (custom resources get 415). */
  strategicMerge: boolean;
  table: TableShape;
  /** Default propagation when a DELETE says nothing (batch/v1 jobs orphan, like the real server). */
  defaultPropagation: 'Background' | 'Orphan';
  /** Where replicas live, when the kind has a scale subresource. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Set for custom resources; the CRD name. */
  crdName?: string;
  /** A custom resource's openAPIV3Schema, published in /openapi/v3 and /openapi/v2. */
  openapiSchema?: Record<string, unknown>;
}

export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const gvKey = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

export interface Registry {
  add(rt: ResourceType): void;
  remove(group: string, version: string, plural: string): void;
  lookup(group: string, version: string, plural: string): ResourceType | undefined;
  byKind(group: string, kind: string): ResourceType | undefined;
  byBucket(bucket: string): ResourceType | undefined;
  all(): ResourceType[];
  /** Group -> versions, in registration order (preferred first). */
  groups(): Map<string, string[]>;
}

export function createRegistry(): Registry {
  const types = new Map<string, ResourceType>();
  const key = (g: string, v: string, p: string): string => `${g}/${v}/${p}`;
  return {
    add: (rt) => {
      types.set(key(rt.group, rt.version, rt.plural), rt);
    },
    remove: (g, v, p) => {
      types.delete(key(g, v, p));
    },
    lookup: (g, v, p) => types.get(key(g, v, p)),
    byKind: (g, kind) => [...types.values()].find((t) => t.group === g && t.kind === kind),
    byBucket: (bucket) => [...types.values()].find((t) => t.bucket === bucket && !t.fromStorage),
    all: () => [...types.values()],
    groups: () => {
      const out = new Map<string, string[]>();
      for (const t of types.values()) {
        const versions = out.get(t.group) ?? [];
        if (!versions.includes(t.version)) versions.push(t.version);
        out.set(t.group, versions);
      }
      return out;
    },
  };
}
