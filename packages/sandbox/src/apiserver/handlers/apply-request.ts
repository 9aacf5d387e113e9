// PATCH with application/apply-patch+yaml (kubectl apply --server-side, client-go's Apply): creates the object
// when absent, else merges the configuration as its field manager's, with kube-apiserver's 409 on conflicts and
// `force=true` (`--force-conflicts`) taking the fields over. fieldManager is required, as on a real server.
import type { KubeObject } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { queryFlag } from '../http/http-io.ts';
import { createObject, present, replaceObject } from '../storage/objects.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import type { ApiPath } from '../http/routes.ts';
import type { UserInfo } from '../auth/authenticate.ts';
import { badRequest, invalid } from '../errors/status.ts';
import { applyConfiguration } from '../apply/managed-fields.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ApplyOutcome {
  code: 200 | 201;
  object: KubeObject;
  warnings: string[];
}

/** The parts of a request apply reads (the handlers' RequestParts). */
export interface ApplyRequest {
  query: URLSearchParams;
  path: ApiPath;
  rt: ResourceType;
  user?: UserInfo;
}

export function serverSideApply(ctx: ApiContext, p: ApplyRequest, body: unknown): ApplyOutcome {
  const manager = p.query.get('fieldManager') ?? '';
  if (manager === '') throw invalid('PatchOptions', 'meta.k8s.io', '', [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }]);
  if (!isObj(body)) throw badRequest('error decoding YAML: the apply configuration must be an object');
  if (typeof body.apiVersion !== 'string' || body.apiVersion === '' || typeof body.kind !== 'string' || body.kind === '') {
    throw badRequest(`invalid object type: ${String(body.apiVersion ?? '')}, Kind=${String(body.kind ?? '')}`);
  }
  const { rt } = p;
  const namespace = p.path.namespace ?? '';
  const name = p.path.name ?? '';
  const config = structuredClone(body) as KubeObject;
  config.metadata = isObj(config.metadata) ? config.metadata : {};
  if (config.metadata.name === undefined) config.metadata.name = name;
  const subresource = p.path.subresource === 'status' ? 'status' : undefined;
  const force = queryFlag(p.query, 'force');
  const dryRun = p.query.getAll('dryRun').includes('All');
  const fieldValidation = p.query.get('fieldValidation') ?? undefined;
  const warnings: string[] = [];
  const now = ctx.now();
  const stored = ctx.store.get(rt.bucket, namespace, name);
  if (!stored) {
    if (subresource) throw badRequest(`${rt.plural} "${name}" not found`);
    const result = applyConfiguration(rt, undefined, config, manager, force, undefined, now);
    const object = createObject(ctx, rt, rt.namespaced ? namespace : undefined, result.object, dryRun, fieldValidation, warnings, p.user, { entries: result.managedFields });
    return { code: 201, object, warnings };
  }
  const live = present(rt, stored);
  const result = applyConfiguration(rt, live, config, manager, force, subresource, now);
  // Optimistic concurrency only when the configuration names a resourceVersion.
  result.object.metadata.resourceVersion = config.metadata.resourceVersion ?? live.metadata.resourceVersion;
  const out = replaceObject(ctx, rt, namespace, name, result.object, {
    ...(subresource && { subresource }),
    dryRun,
    internal: true,
    ...(fieldValidation !== undefined && { fieldValidation }),
    warnings,
    ...(p.user && { user: p.user }),
    managedFields: result.managedFields,
  });
  return { code: 200, object: out.object, warnings };
}
