// PATCH: pick the patch flavour from Content-Type and apply it to the current object.
import type { KubeObject } from '../../store/types.ts';
import { applyJsonPatch, applyMergePatch } from '../encodings/json-patch.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { badRequest, invalid, unsupportedMediaType } from '../errors/status.ts';
import { applyStrategicMergePatch } from '../encodings/strategic-merge.ts';

const accepted = (rt: ResourceType): string =>
  rt.strategicMerge
    ? 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json'
    : 'application/json-patch+json, application/merge-patch+json';

export function applyPatch(rt: ResourceType, current: KubeObject, contentType: string, patch: unknown): unknown {
  const type = contentType.split(';')[0]?.trim() ?? '';
  switch (type) {
    case 'application/json-patch+json': {
      const r = applyJsonPatch(current, patch);
      if (!r.ok) throw invalid(rt.kind, rt.group, current.metadata.name ?? '', [{ reason: 'FieldValueInvalid', message: r.message, field: '' }]);
      return r.value;
    }
    case 'application/merge-patch+json':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw badRequest('merge patch must be a JSON object');
      return applyMergePatch(current, patch);
    case 'application/strategic-merge-patch+json':
      if (!rt.strategicMerge) {
        throw unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${accepted(rt)}`);
      }
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw badRequest('strategic merge patch must be a JSON object');
      return applyStrategicMergePatch(current, patch, rt.kind);
    case 'application/apply-patch+yaml':
    case 'application/apply-patch+cbor':
      throw unsupportedMediaType(
        `server-side apply is served on objects and their status (src/apiserver/apply), not on this subresource by the rayjob sandbox API server; use a merge patch. Accepted media types: ${accepted(rt)}`,
      );
    default:
      throw unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${accepted(rt)}`);
  }
}
