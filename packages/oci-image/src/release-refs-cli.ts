#!/usr/bin/env node
// node packages/oci-image/src/release-refs-cli.ts --version X.Y.Z --operator-digest sha256:... --submitter-digest
//   sha256:... [--registry ghcr.io/rayjob]: pins the chart and the kustomize base to the released images (the
//   release workflow runs it; see RELEASING.md). Exit 2 on bad input, naming the flag.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkRefs, pinChart, pinDeployment, pinKustomization, pinValues, type ReleaseRefs } from './release-refs.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const files: Array<[string, (text: string, refs: ReleaseRefs) => string]> = [
  ['apps/operator/deploy/helm/rayjob-operator/values.yaml', pinValues],
  ['apps/operator/deploy/helm/rayjob-operator/Chart.yaml', pinChart],
  ['apps/operator/deploy/kustomize/base/kustomization.yaml', pinKustomization],
  ['apps/operator/deploy/kustomize/base/deployment.yaml', pinDeployment],
];

let refs: ReleaseRefs;
try {
  const { values } = parseArgs({ options: { version: { type: 'string' }, 'operator-digest': { type: 'string' }, 'submitter-digest': { type: 'string' }, registry: { type: 'string', default: 'ghcr.io/rayjob' }, root: { type: 'string', default: repoRoot } } });
  refs = { version: values.version ?? '', registry: values.registry, operatorDigest: values['operator-digest'] ?? '', submitterDigest: values['submitter-digest'] ?? '' };
  checkRefs(refs);
  const texts = files.map(([path, pin]) => [join(values.root, path), pin(readFileSync(join(values.root, path), 'utf8'), refs)] as const);
  for (const [path, text] of texts) writeFileSync(path, text);
  for (const [path] of files) console.log(`pinned ${path}`);
} catch (error) {
  console.error(`release-refs: ${(error as Error).message}`);
  process.exit(2);
}
