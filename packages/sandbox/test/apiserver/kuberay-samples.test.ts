// KubeRay's sample RayJobs and RayClusters (ray-operator/config/samples) against our generated CRDs, with
// fieldValidation=Strict as kubectl sends it: every one must be accepted as written (nothing unknown, nothing
// mistyped), now that pod templates and the other Kubernetes types carry their full schema.
//
// The samples are KubeRay's, so they are read from a KubeRay git directory, never committed here:
// KUBERAY_GIT_DIR (default: where the fetch tool puts `github:ray-project/kuberay`), at KUBERAY_REF: by default the
// commit our CRDs were checked against, so a newer snapshot on some machine cannot turn CI red; without that commit
// the file is skipped and says why.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { http, startHarness, type Harness } from '../harness.ts';

const gitDir = process.env.KUBERAY_GIT_DIR ?? '/work/.mirror/ray-project+kuberay/repo';
const ref = process.env.KUBERAY_REF ?? 'feeaf72facab4881ba2b179248bb67315634e229';
const available = existsSync(gitDir) && spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${ref}^{commit}`]).status === 0;
if (!available) console.log(`skipped: KubeRay's samples need ${gitDir} with commit ${ref} (KUBERAY_GIT_DIR, KUBERAY_REF)`);
const crdDir = join(import.meta.dirname, '..', '..', '..', 'core', 'crds');
const PLURALS: Record<string, string> = { RayJob: 'rayjobs', RayCluster: 'rayclusters' };

interface Sample {
  file: string;
  kind: string;
  object: Record<string, unknown> & { metadata: Record<string, unknown> };
}

/** Reads every sample with two git processes (ls-tree, then one `cat-file --batch` for all files). */
function samples(): Sample[] {
  const git = (args: string[], input?: string) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024, ...(input !== undefined && { input }) });
  const files = git(['ls-tree', '-r', '--name-only', ref, 'ray-operator/config/samples/']).toString('utf8').split('\n').filter((f) => /\.ya?ml$/.test(f));
  const batch = git(['cat-file', '--batch'], files.map((f) => `${ref}:${f}\n`).join(''));
  let offset = 0;
  return files.flatMap((file) => {
    const headerEnd = batch.indexOf(10, offset);
    const size = Number(batch.subarray(offset, headerEnd).toString('utf8').split(' ')[2]);
    const text = batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8');
    offset = headerEnd + 1 + size + 1;
    return parseAllDocuments(text)
      .map((doc) => doc.toJS() as Sample['object'] | null)
      .filter((o): o is Sample['object'] => o !== null && o.apiVersion === 'ray.io/v1' && typeof o.kind === 'string' && o.kind in PLURALS)
      .map((object) => ({ file: file.replace('ray-operator/config/samples/', ''), kind: object.kind as string, object }));
  });
}

describe.skipIf(!available)(`KubeRay's samples (${gitDir} @ ${ref})`, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ crds: ['ray.io_rayjobs.yaml', 'ray.io_rayclusters.yaml'].map((f) => join(crdDir, f)) });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('every RayJob and RayCluster is accepted under strict field validation', async () => {
    const all = available ? samples() : [];
    // 19 RayJobs and 46 RayClusters at the top level alone (snapshot 2026-08-19).
    expect(all.length).toBeGreaterThanOrEqual(65);
    const refused: string[] = [];
    for (const { file, kind, object } of all) {
      const { namespace: _namespace, ...metadata } = object.metadata;
      const path = `/apis/ray.io/v1/namespaces/default/${PLURALS[kind]}?fieldValidation=Strict&dryRun=All`;
      const res = await http(h.server, 'POST', path, { ...object, metadata });
      if (res.status !== 201) refused.push(`${file} ${kind} ${String(metadata.name)}: ${res.status} ${String(res.body?.message)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
