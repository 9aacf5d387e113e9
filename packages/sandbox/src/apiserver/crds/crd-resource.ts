// Turning a CRD into served ResourceTypes: names, scope, status subresource, schema-driven pruning,
// defaulting and validation (including CEL rules), and additionalPrinterColumns tables.
import type { KubeObject } from '../../store/types.ts';
import { ageOf } from '../tables/age.ts';
import { celValidate } from '../schema/crd-cel.ts';
import { applySchemaDefaults, pruneUnknown, validateSchema, type Schema } from '../schema/crd-schema.ts';
import { evaluateJsonPath } from '../tables/jsonpath.ts';
import { allVerbs, type ColumnDefinition, type ResourceType, type TableShape } from '../registry/resource-types.ts';
import { col, defaultTable } from '../tables/tables-builtin.ts';

type Obj = Record<string, unknown>;

interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  priority?: number;
  format?: string;
}

function printerTable(columns: PrinterColumn[] | undefined): TableShape {
  if (!columns || columns.length === 0) return defaultTable;
  const defs: ColumnDefinition[] = [
    col('Name', 0, 'string', 'name'),
    ...columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
  ];
  return {
    columns: defs,
    cells: (obj, now) => [
      obj.metadata.name,
      ...columns.map((c) => {
        const found = evaluateJsonPath(obj, c.jsonPath);
        if (found.length === 0 || found[0] === undefined || found[0] === null) return null;
        const v = found[0];
        if (c.type === 'date') return ageOf(v, now);
        if (c.type === 'integer' || c.type === 'number' || c.type === 'boolean') return v;
        return typeof v === 'string' ? v : JSON.stringify(v);
      }),
    ],
  };
}

export function crdResourceTypes(crd: KubeObject): ResourceType[] {
  const spec = (crd.spec ?? {}) as Obj;
  const names = (spec.names ?? {}) as Obj;
  const group = String(spec.group ?? '');
  const plural = String(names.plural ?? '');
  const kind = String(names.kind ?? '');
  const versions = ((spec.versions as Obj[]) ?? []).filter((v) => v.served !== false);
  // Storage version first so it is the preferred version in discovery.
  versions.sort((a, b) => Number(b.storage === true) - Number(a.storage === true));
  return versions.map((v) => {
    const schema = ((v.schema as Obj | undefined)?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Schema;
    const subresources = (v.subresources ?? {}) as Obj;
    const hasStatus = subresources.status !== undefined;
    return {
      group,
      version: String(v.name),
      plural,
      singular: String(names.singular ?? kind.toLowerCase()),
      kind,
      listKind: String(names.listKind ?? `${kind}List`),
      namespaced: spec.scope !== 'Cluster',
      shortNames: (names.shortNames as string[]) ?? [],
      categories: (names.categories as string[]) ?? [],
      verbs: allVerbs,
      bucket: `${group}/${plural}`,
      subresources: [...(hasStatus ? ['status'] : []), ...(subresources.scale !== undefined ? ['scale'] : [])],
      statusSplit: hasStatus,
      strategicMerge: false,
      crdName: crd.metadata.name ?? '',
      openapiSchema: schema as Record<string, unknown>,
      ...(subresources.scale !== undefined && { scale: subresources.scale as NonNullable<ResourceType['scale']> }),
      table: printerTable(v.additionalPrinterColumns as PrinterColumn[] | undefined),
      defaultPropagation: 'Background',
      applyDefaults: (obj) => {
        const pruned = pruneUnknown(obj, schema, true);
        applySchemaDefaults(obj, schema);
        return pruned;
      },
      validate: (obj, ctx) => [...validateSchema(obj, schema), ...celValidate(obj, ctx.old, schema)],
    } satisfies ResourceType;
  });
}
