// CustomResourceDefinitions: creating one makes its kind served at once (discovery, CRUD, watch); the
// status is then marked NamesAccepted + Established; deleting one removes its objects and endpoints.
import { existsSync, readFileSync } from 'node:fs';
// js-yaml, not yaml: it parses our generated CRDs (hundreds of kB of deeply nested schema) about 6x faster.
import { loadAll } from 'js-yaml';
import type { KubeObject, StoreEvent } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { crdResourceTypes } from './crd-resource.ts';
import { timeNow } from '../encodings/microtime.ts';
import { createObject, replaceObject } from '../storage/objects.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { ApiError, badRequest } from '../errors/status.ts';

const crdBucket = 'apiextensions.k8s.io/customresourcedefinitions';

type Obj = Record<string, unknown>;

export function startCrdController(ctx: ApiContext): () => void {
  const served = new Map<string, ResourceType[]>();

  const unregister = (crdName: string): void => {
    for (const rt of served.get(crdName) ?? []) ctx.registry.remove(rt.group, rt.version, rt.plural);
    served.delete(crdName);
  };

  const establish = (crd: KubeObject): void => {
    const current = ctx.store.get(crdBucket, '', crd.metadata.name ?? '');
    if (!current || current.metadata.uid !== crd.metadata.uid) return;
    const status = (current.status ?? {}) as Obj;
    const established = ((status.conditions as Obj[]) ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    const spec = (current.spec ?? {}) as Obj;
    if (established && JSON.stringify(status.acceptedNames) === JSON.stringify(spec.names)) return;
    const at = timeNow(ctx.now());
    const versions = (spec.versions as Obj[]) ?? [];
    const storage = versions.find((v) => v.storage === true)?.name;
    const next = {
      ...current,
      status: {
        conditions: [
          { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: at },
          { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: at },
        ],
        acceptedNames: spec.names,
        storedVersions: storage ? [storage] : [],
      },
    };
    const crdType = ctx.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
    if (!crdType) return;
    try {
      replaceObject(ctx, crdType, '', current.metadata.name ?? '', next, { subresource: 'status', internal: true });
    } catch {
      // Changed meanwhile: the next event establishes it.
    }
  };

  const onEvent = (event: StoreEvent): void => {
    const crd = event.object;
    const name = crd.metadata.name ?? '';
    if (event.type === 'DELETED') {
      const types = served.get(name) ?? [];
      unregister(name);
      const bucket = types[0]?.bucket;
      if (bucket) for (const obj of ctx.store.list(bucket)) ctx.store.remove(bucket, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      return;
    }
    unregister(name);
    const types = crdResourceTypes(crd);
    for (const rt of types) ctx.registry.add(rt);
    served.set(name, types);
    // Deferred: a write inside a store listener would reach other listeners before this event.
    setImmediate(() => establish(crd));
  };
  return ctx.store.subscribe(onEvent, crdBucket);
}

/** Install CRDs from YAML texts or file paths (multi-document files allowed); replaces existing ones. */
export async function installCrdDocuments(ctx: ApiContext, sources: string[]): Promise<void> {
  const crdType = ctx.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  if (!crdType) throw new Error('CRD API missing');
  for (const source of sources) {
    const text = !source.includes('\n') && existsSync(source) ? readFileSync(source, 'utf8') : source;
    for (const doc of loadAll(text)) {
      const crd = doc as KubeObject | null;
      if (!crd) continue;
      if (crd.kind !== 'CustomResourceDefinition') throw badRequest(`crds: expected kind CustomResourceDefinition, got ${String(crd.kind)} (in ${source.slice(0, 80)})`);
      try {
        createObject(ctx, crdType, undefined, crd);
      } catch (e) {
        if (!(e instanceof ApiError) || e.status.reason !== 'AlreadyExists') throw e;
        const current = ctx.store.get(crdType.bucket, '', crd.metadata.name ?? '');
        replaceObject(ctx, crdType, '', crd.metadata.name ?? '', { ...crd, metadata: { ...crd.metadata, resourceVersion: current?.metadata.resourceVersion } });
      }
    }
  }
}
