import { stringify } from 'yaml';
import { rayClusterCrd, rayJobCrd } from './definitions.ts';
import type { OpenApiSchema } from './structural-schema.ts';

const HEADER =
  '# Generated from the zod schemas in packages/core/src/schema by `nx run core:crd-generate`.\n' +
  '# Do not edit by hand: a test fails when this file differs from what the schemas generate.\n';

/** Renders a manifest as YAML with sorted keys, so the committed file only changes when the schema does. */
export function renderManifestYaml(manifest: OpenApiSchema): string {
  return HEADER + '---\n' + stringify(manifest, { sortMapEntries: true, lineWidth: 0 });
}

/** Every generated CRD file, by file name (relative to packages/core/crds). */
export function generateCrdFiles(): Record<string, string> {
  return {
    'ray.io_rayjobs.yaml': renderManifestYaml(rayJobCrd()),
    'ray.io_rayclusters.yaml': renderManifestYaml(rayClusterCrd()),
  };
}
