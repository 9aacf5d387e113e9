// The release pins the chart and kustomize to what it pushed: run on this checkout's real files, each edit
// lands where the chart and kustomize read it, and a file whose line is gone stops the release.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkRefs, pinChart, pinDeployment, pinKustomization, pinValues, type ReleaseRefs } from '../src/release-refs.ts';

const deploy = resolve(import.meta.dirname, '..', '..', '..', 'apps', 'operator', 'deploy');
const read = (path: string): string => readFileSync(join(deploy, path), 'utf8');
const refs: ReleaseRefs = { version: '1.2.3', registry: 'ghcr.io/acme', operatorDigest: `sha256:${'a'.repeat(64)}`, submitterDigest: `sha256:${'b'.repeat(64)}` };

describe('pinning the released images', () => {
  it('values.yaml: the operator image by tag and digest, the submitter image too; nothing else changes', () => {
    const before = read('helm/rayjob-operator/values.yaml');
    const after = pinValues(before, refs);
    const values = parse(after) as { image: { repository: string; tag: string; pullPolicy: string }; submitterImage: string };
    expect(values.image).toEqual({ ...(parse(before) as { image: object }).image, repository: 'ghcr.io/acme/operator', tag: `1.2.3@${refs.operatorDigest}` });
    expect(values.submitterImage).toBe(`ghcr.io/acme/submitter:1.2.3@${refs.submitterDigest}`);
    expect(after.split('\n').length).toBe(before.split('\n').length);
  });

  it('Chart.yaml: version and appVersion', () => {
    expect(parse(pinChart(read('helm/rayjob-operator/Chart.yaml'), refs))).toMatchObject({ version: '1.2.3', appVersion: '1.2.3' });
  });

  it('kustomization.yaml: newName, newTag and digest for the operator image (idempotent)', () => {
    const once = pinKustomization(read('kustomize/base/kustomization.yaml'), refs);
    expect((parse(once) as { images: unknown[] }).images).toEqual([{ name: 'ghcr.io/rayjob/operator', newName: 'ghcr.io/acme/operator', newTag: '1.2.3', digest: refs.operatorDigest }]);
    expect(pinKustomization(once, refs)).toBe(once);
  });

  it('deployment.yaml: --submitter-image', () => {
    expect(pinDeployment(read('kustomize/base/deployment.yaml'), refs)).toContain(`--submitter-image=ghcr.io/acme/submitter:1.2.3@${refs.submitterDigest}`);
  });

  it.each([
    ['a file without the line', () => pinDeployment('args: []\n', refs), 'expected one match'],
    ['a version that is not X.Y.Z', () => checkRefs({ ...refs, version: 'v1.2' }), '--version'],
    ['a digest that is not sha256', () => checkRefs({ ...refs, operatorDigest: 'latest' }), '--operator-digest'],
  ])('refuses %s', (_what, run, message) => {
    expect(run).toThrow(message);
  });
});
