// OpenAPI documents as kube-apiserver publishes them: /openapi/v3 (an index of group versions, each a document
// with paths and component schemas) and /openapi/v2 (one document with every definition).
// kubectl reads them for `kubectl explain`, for client-side validation, and to learn whether the server does
// server-side field validation: a PATCH operation tagged with the kind's x-kubernetes-group-version-kind that
// lists the `fieldValidation` query parameter (published for every served kind).
import { createHash } from 'node:crypto';
import { schemasFor } from './openapi-schemas.ts';
import type { Registry, ResourceType } from '../registry/resource-types.ts';

export const openapiInfo = { title: 'Kubernetes', version: 'v1.32.0' };
const info = openapiInfo;

export function openapiV3Index(registry: Registry): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [group, versions] of registry.groups()) {
    for (const v of versions) {
      const key = group === '' ? `api/${v}` : `apis/${group}/${v}`;
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hashOf(typesIn(registry, group, v))}` };
    }
  }
  return { paths };
}

const typesIn = (registry: Registry, group: string, version: string): ResourceType[] => registry.all().filter((t) => t.group === group && t.version === version);

/** Changes when the kinds served in a group version or their schemas change, so kubectl's cache refreshes. */
function hashOf(types: ResourceType[]): string {
  const h = createHash('sha512');
  for (const t of [...types].sort((a, b) => (a.plural < b.plural ? -1 : 1))) h.update(`${t.plural}\n${t.openapiSchema ? JSON.stringify(t.openapiSchema) : ''}\n`);
  return h.digest('hex').slice(0, 128).toUpperCase();
}

const queryParams = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
}));

function pathsOf(types: ResourceType[], style: 'v2' | 'v3'): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const t of types) {
    const prefix = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const op = (action: string) => ({
      operationId: `${action}${t.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters: style === 'v3' ? queryParams : queryParams.map(({ schema, ...p }) => ({ ...p, type: schema.type, uniqueItems: true })),
      responses: { '200': { description: 'OK' } },
    });
    const item = `${prefix}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}/{name}`;
    paths[item] = { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
    const collection = `${prefix}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    paths[collection] = { get: op('list'), post: op('post') };
  }
  return paths;
}

export function openapiV3Doc(registry: Registry, group: string, version: string): Record<string, unknown> | undefined {
  const types = typesIn(registry, group, version);
  if (types.length === 0) return undefined;
  return { openapi: '3.0.0', info, paths: pathsOf(types, 'v3'), components: { schemas: schemasFor(types, 'v3') } };
}

export function openapiV2Doc(registry: Registry): Record<string, unknown> {
  const types = registry.all();
  return { swagger: '2.0', info, paths: pathsOf(types, 'v2'), definitions: schemasFor(types, 'v2') };
}
