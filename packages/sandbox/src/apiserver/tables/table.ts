// Server-side printing: Table (meta.k8s.io/v1) and PartialObjectMetadata responses, chosen by Accept.
import type { KubeObject } from '../../store/types.ts';
import type { ResourceType } from '../registry/resource-types.ts';

export type OutputForm = 'object' | 'table' | 'metadata';

/** kubectl asks `application/json;as=Table;v=v1;g=meta.k8s.io,...`; metadata clients ask PartialObjectMetadata. */
export function outputFormOf(accept: string | undefined): OutputForm {
  if (!accept) return 'object';
  const first = accept.split(',')[0] ?? '';
  if (/as=Table/.test(first)) return 'table';
  if (/as=PartialObjectMetadata/.test(first)) return 'metadata';
  return 'object';
}

const partial = (obj: KubeObject): KubeObject => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });

export function toTable(
  rt: ResourceType,
  items: KubeObject[],
  resourceVersion: string,
  includeObject: string | undefined,
  now: number,
  withColumns = true,
): Record<string, unknown> {
  const rows = items.map((obj) => ({
    cells: rt.table.cells(obj, now),
    object: includeObject === 'None' ? undefined : includeObject === 'Object' ? obj : partial(obj),
  }));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    ...(withColumns && { columnDefinitions: rt.table.columns }),
    rows,
  };
}

export function toPartialList(items: KubeObject[], resourceVersion: string): Record<string, unknown> {
  return { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion }, items: items.map(partial) };
}

export function toPartial(obj: KubeObject): KubeObject {
  return partial(obj);
}
