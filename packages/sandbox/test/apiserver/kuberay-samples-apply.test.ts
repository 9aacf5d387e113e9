// Every KubeRay sample (ray-operator/config/samples, all kinds in each file) applies as on a real cluster with
// KubeRay's CRDs installed: the only refusals allowed are the ones a real cluster gives too — kinds from other
// projects' CRDs (Gateway API, Volcano, Kai...) and kubectl's own "cannot use generate name with apply".
// The samples are not vendored: point KUBERAY_SAMPLES_DIR at a KubeRay checkout's ray-operator/config/samples
// (its ../crd/bases holds the CRDs); elsewhere this reports itself skipped.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageOfKind } from '../../src/apiserver/encodings/proto/descriptors.ts';
import { startHarness, type Harness } from '../harness.ts';

const samplesDir = process.env.KUBERAY_SAMPLES_DIR ?? '';
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.yaml') ? [path] : [];
  });

describe.skipIf(samplesDir === '')(`KubeRay samples (${samplesDir})`, () => {
  let h: Harness;
  beforeAll(async () => {
    const crds = join(samplesDir, '..', 'crd', 'bases');
    h = await startHarness({ crds: readdirSync(crds).filter((f) => f.endsWith('.yaml')).map((f) => join(crds, f)) });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('each sample file applies (server dry run), or fails only as on a real cluster with KubeRay\'s CRDs', async () => {
    const unexpected: string[] = [];
    for (const file of samplesDir === '' ? [] : files(samplesDir)) {
      const out = await h.kubectl(['apply', '--dry-run=server', '-f', file]);
      // Every line but warnings and kubectl's hint after "no matches" is a refusal ("The RayJob ... is invalid" too).
      const refusals = out.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Warning:') && l !== 'ensure CRDs are installed first');
      // A kind is another project's when Kubernetes itself has no such type (no k8s.io proto message for it).
      const asOnRealCluster = (l: string): boolean => {
        const m = /no matches for kind "(\w+)" in version "([\w.-]+\/\w+)"/.exec(l);
        if (m) return messageOfKind(m[2] as string, m[1] as string) === undefined && !(m[2] as string).startsWith('ray.io/');
        return /cannot use generate name with apply/.test(l);
      };
      if ((out.code !== 0 || refusals.length > 0) && !(refusals.length > 0 && refusals.every(asOnRealCluster))) unexpected.push(`${file}: ${out.stderr.trim()}`);
    }
    expect(unexpected).toEqual([]);
  }, 600_000);
});
