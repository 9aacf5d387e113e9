import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rayClusterCrd, rayJobCrd } from '../../src/crd/definitions.ts';
import { KUBERNETES_VERSION } from '../../src/crd/kubernetes-definitions.generated.ts';
import type { OpenApiSchema } from '../../src/crd/structural-schema.ts';
import { fieldPathTree, fieldPaths, type FieldPathTree } from './field-paths.ts';

// The field paths of KubeRay's own CRDs (names only), written by tools/kuberay-crd-paths.ts.
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'kuberay-crd-paths.json'), 'utf8')) as {
  source: { commit: string; kubernetesApi: string };
  rayjobs: FieldPathTree;
  rayclusters: FieldPathTree;
};

const v1Schema = (crd: OpenApiSchema): OpenApiSchema =>
  ((crd.spec as { versions: { name: string; schema: { openAPIV3Schema: OpenApiSchema } }[] }).versions.find((v) => v.name === 'v1'))!.schema
    .openAPIV3Schema;

describe("every field path of KubeRay's CRDs", () => {
  it.each([
    { kind: 'RayJob', ours: rayJobCrd(), theirs: fixture.rayjobs, atLeast: 4000 },
    { kind: 'RayCluster', ours: rayClusterCrd(), theirs: fixture.rayclusters, atLeast: 3000 },
  ])('is declared by our $kind CRD', ({ ours, theirs, atLeast }) => {
    const expected = fieldPaths(theirs);
    expect(expected.length).toBeGreaterThan(atLeast);
    const declared = new Set(fieldPaths(fieldPathTree(v1Schema(ours))));
    expect(expected.filter((path) => !declared.has(path))).toEqual([]);
  });

  it('comes from the Kubernetes minor version KubeRay builds its CRDs against', () => {
    // k8s.io/api v0.N.x is Kubernetes v1.N.x.
    const kubeRayMinor = /^v0\.(\d+)\./.exec(fixture.source.kubernetesApi)?.[1];
    expect(KUBERNETES_VERSION).toMatch(new RegExp(`^v1\\.${kubeRayMinor}\\.\\d+$`));
  });
});
