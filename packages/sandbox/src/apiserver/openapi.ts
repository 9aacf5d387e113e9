// Minimal OpenAPI v3 documents. kubectl (apply/create/replace) reads /openapi/v3/<gv> to learn whether
// the server supports server-side field validation: it looks for a PATCH operation tagged with the
// kind's x-kubernetes-group-version-kind that lists the `fieldValidation` query parameter. We publish
// exactly that for every served kind, so kubectl validates server-side (fieldValidation=Strict) instead
// of downloading schemas. No component schemas are published: kubectl then computes apply patches from
// its compiled-in types (built-ins) or as JSON merge patches (custom resources), as it does for CRDs
// without published schemas. /openapi/v2 (protobuf) is not served.
import type { Registry } from './resource-types.ts';

export function openapiV3Index(registry: Registry): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [group, versions] of registry.groups()) {
    for (const v of versions) {
      const key = group === '' ? `api/${v}` : `apis/${group}/${v}`;
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hashOf(registry, group, v)}` };
    }
  }
  return { paths };
}

/** Changes when the kinds served in a group version change, so kubectl's cache refreshes. */
function hashOf(registry: Registry, group: string, version: string): string {
  const names = registry
    .all()
    .filter((t) => t.group === group && t.version === version)
    .map((t) => t.plural)
    .sort()
    .join(',');
  let h = 0;
  for (const ch of names) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h.toString(16).toUpperCase();
}

const queryParams = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
}));

export function openapiV3Doc(registry: Registry, group: string, version: string): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const paths: Record<string, unknown> = {};
  for (const t of types) {
    const gvk = { group, version, kind: t.kind };
    const op = (action: string) => ({
      operationId: `${action}${t.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      parameters: queryParams,
      responses: { '200': { description: 'OK' } },
    });
    const item = `${prefix}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}/{name}`;
    paths[item] = { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
    const collection = `${prefix}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    paths[collection] = { get: op('list'), post: op('post') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: {} } };
}
