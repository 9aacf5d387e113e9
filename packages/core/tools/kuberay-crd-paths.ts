// Writes test/crd/fixtures/kuberay-crd-paths.json: the field paths (names only, no schema text or prose) of
// KubeRay's published RayJob and RayCluster CRDs, as a tree, so a test can check that ours declares every one.
//
// Bring KubeRay with the fetch tool (`fetch github:ray-project/kuberay`), then:
//   node tools/kuberay-crd-paths.ts --git-dir /work/.mirror/ray-project+kuberay/repo [--ref HEAD]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { fieldPathTree, type FieldPathTree } from '../test/crd/field-paths.ts';

const FILES = { rayjobs: 'ray.io_rayjobs.yaml', rayclusters: 'ray.io_rayclusters.yaml' };

const { values } = parseArgs({ options: { 'git-dir': { type: 'string' }, ref: { type: 'string', default: 'HEAD' } } });
const gitDir = values['git-dir'];
if (!gitDir) {
  console.error('usage: node tools/kuberay-crd-paths.ts --git-dir <ray-project/kuberay git dir> [--ref HEAD]');
  process.exit(2);
}
const ref = values.ref ?? 'HEAD';
const git = (...args: string[]): string =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const commit = git('rev-parse', `${ref}^{commit}`).trim();
const kubernetesApi = /^\s*k8s\.io\/api (v\S+)/m.exec(git('show', `${ref}:ray-operator/go.mod`))?.[1] ?? 'unknown';
const trees: Record<string, FieldPathTree> = {};
for (const [key, file] of Object.entries(FILES)) {
  const crd = parse(git('show', `${ref}:ray-operator/config/crd/bases/${file}`)) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
  };
  const v1 = crd.spec.versions.find((v) => v.name === 'v1');
  if (!v1) throw new Error(`${file} has no v1`);
  trees[key] = fieldPathTree(v1.schema.openAPIV3Schema);
}
const out = join(import.meta.dirname, '..', 'test', 'crd', 'fixtures', 'kuberay-crd-paths.json');
writeFileSync(out, JSON.stringify({ source: { repository: 'ray-project/kuberay', commit, kubernetesApi }, ...trees }) + '\n');
console.log(`wrote ${out} (kuberay ${commit}, k8s.io/api ${kubernetesApi})`);
