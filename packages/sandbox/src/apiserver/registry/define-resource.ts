// One builder for the ResourceType of a built-in kind (built-ins with controllers, stored-only kinds, the
// admission policy kinds, the review kinds): the names follow from kind and plural as kube-apiserver derives
// them, and every field a kind does not set takes the common value.
import { allVerbs, type ResourceType, type TableShape } from './resource-types.ts';

export interface ResourceSpec {
  /** Default "" (the core group). */
  group?: string;
  /** Default v1. */
  version?: string;
  plural: string;
  kind: string;
  /** Default true. */
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Default every verb. */
  verbs?: string[];
  subresources?: string[];
  statusSplit?: boolean;
  /** Default true (built-ins take strategic merge patches). */
  strategicMerge?: boolean;
  table: TableShape;
  /** Default "<group>/<plural>". */
  bucket?: string;
  /** The kind's behaviour hooks (defaults, validation, scale...) and any other field to override. */
  extra?: Partial<ResourceType>;
}

export function defineResource(spec: ResourceSpec): ResourceType {
  const group = spec.group ?? '';
  return {
    group,
    version: spec.version ?? 'v1',
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    namespaced: spec.namespaced ?? true,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    verbs: spec.verbs ?? allVerbs,
    bucket: spec.bucket ?? `${group}/${spec.plural}`,
    subresources: spec.subresources ?? [],
    statusSplit: spec.statusSplit ?? false,
    strategicMerge: spec.strategicMerge ?? true,
    table: spec.table,
    defaultPropagation: 'Background',
    ...spec.extra,
  };
}
