// kind: the kubectl driver plus the cluster's lifecycle — create a kind cluster, build our operator and
// submitter images with Docker, load them into the cluster, install the operator with our Helm chart, and run
// Ray 2.55.1 (rayproject/ray:2.55.1). Where Docker, a running engine, kind or helm is missing it reports
// `skipped: <why>` and never counts as passed.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKubectlDriver } from './kubectl-driver.ts';
import type { Driver } from './types.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

export const kindImages = { operator: 'rayjob/operator:e2e', submitter: 'rayjob/submitter:e2e', ray: 'rayproject/ray:2.55.1' } as const;

function run(command: string, args: string[], timeoutMs = 20 * 60_000, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: repo, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 127) : 0, out: `${stdout}${stderr}` }));
  });
}

/** Why kind cannot run here, or undefined when it can. */
export async function kindUnavailable(): Promise<string | undefined> {
  const docker = await run('docker', ['info', '--format', '{{.ServerVersion}}'], 20_000);
  if (docker.code === 127) return 'docker is not installed';
  if (docker.code !== 0) return `no Docker engine answers (docker info: ${docker.out.trim().split('\n').pop() ?? ''})`;
  if ((await run('kind', ['version'], 20_000)).code !== 0) return 'kind is not installed (https://kind.sigs.k8s.io)';
  if ((await run('helm', ['version', '--short'], 20_000)).code !== 0) return 'helm is not installed';
  return undefined;
}

export interface KindDriver extends Driver {
  clusterName: string;
}

export async function startKindDriver(clusterName = 'rayjob-e2e'): Promise<KindDriver | { skipped: string }> {
  const why = await kindUnavailable();
  if (why !== undefined) return { skipped: why };
  const dir = await mkdtemp(join(tmpdir(), 'rayjob-kind-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const step = async (what: string, command: string, args: string[]): Promise<void> => {
    const r = await run(command, args, 20 * 60_000, { KUBECONFIG: kubeconfigPath });
    if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}):\n${r.out.slice(-4000)}`);
  };
  await step('kind create cluster', 'kind', ['create', 'cluster', '--name', clusterName, '--kubeconfig', kubeconfigPath, '--wait', '120s']);
  await step('docker build operator', 'docker', ['build', '-t', kindImages.operator, '-f', 'apps/operator/Dockerfile', '.']);
  await step('docker build submitter', 'docker', ['build', '-t', kindImages.submitter, '-f', 'apps/submitter-sidecar/Dockerfile', '.']);
  await step('docker pull ray', 'docker', ['pull', kindImages.ray]);
  for (const image of Object.values(kindImages)) await step(`kind load ${image}`, 'kind', ['load', 'docker-image', image, '--name', clusterName]);
  await step('helm install', 'helm', [
    'install', 'rayjob', 'apps/operator/deploy/helm/rayjob-operator', '--namespace', 'rayjob-system', '--create-namespace', '--wait',
    '--set', `image.repository=${kindImages.operator.split(':')[0]}`, '--set', `image.tag=${kindImages.operator.split(':')[1]}`,
    '--set', `submitterImage=${kindImages.submitter}`,
  ]);
  const kubectl = createKubectlDriver({ kubeconfigPath, name: 'kind' });
  return {
    ...kubectl,
    clusterName,
    abilities: new Set(['realRay']),
    close: async () => {
      await kubectl.close();
      await run('kind', ['delete', 'cluster', '--name', clusterName]);
    },
  };
}
