// The operator against a real Kubernetes (k3s in a container, through @testcontainers/k3s): the chart's CRDs
// installed with kubectl, the operator (both controllers) run from this process with --use-kubernetes-proxy (it
// is outside the cluster's network), an invalid RayJob judged ValidationFailed, and an HTTPMode RayJob on real
// Ray running to Complete. Without a Docker engine the suite reports itself skipped with the reason, never passed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@rayjob/kube-runtime';
import { K3sContainer, type StartedK3sContainer } from '@testcontainers/k3s';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { startOperator, type RunningOperator } from '../src/operator.ts';
import { eventually, giveUp } from './support/api.ts';
import { chartPath } from './support/helm.ts';

const K3S_IMAGE = 'rancher/k3s:v1.32.4-k3s1';
const scratch = mkdtempSync(join(tmpdir(), 'operator-k3s-'));
let k3s: StartedK3sContainer | undefined;
let operator: RunningOperator | undefined;
afterAll(async () => {
  await operator?.stop();
  await k3s?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Why there is no Docker engine to run k3s in, or undefined when there is one. */
async function noDocker(): Promise<string | undefined> {
  const socket = '/var/run/docker.sock';
  if (!process.env.DOCKER_HOST && !existsSync(socket)) return `no Docker engine (no ${socket} and DOCKER_HOST unset)`;
  try {
    await (await getContainerRuntimeClient()).info;
    return undefined;
  } catch (error) {
    return `no usable Docker engine: ${(error as Error).message}`;
  }
}

const kubectl = (kubeconfig: string, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { env: { ...process.env, HOME: scratch }, timeout: 120_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });

const invalidRayJob = `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: invalid}
spec:
  suspend: true
  entrypoint: echo hi
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {}
      template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.58.0}]}}
`;

const httpModeRayJob = `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: http-mode}
spec:
  submissionMode: HTTPMode
  entrypoint: python -c "print('hello from k3s')"
  shutdownAfterJobFinishes: true
  rayClusterSpec:
    rayVersion: '2.58.0'
    headGroupSpec:
      rayStartParams: {}
      template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.58.0, resources: {limits: {cpu: '1', memory: 2Gi}}}]}}
`;

describe('k3s (testcontainers)', () => {
  it('installs the CRDs, judges an invalid RayJob and runs an HTTPMode RayJob to Complete on real Ray', { timeout: 30 * 60_000 }, async (ctx) => {
    const why = await noDocker();
    if (why !== undefined) {
      process.stdout.write(`skipped: ${why}\n`);
      ctx.skip(`skipped: ${why}`);
      return;
    }
    k3s = await new K3sContainer(K3S_IMAGE).start();
    const kubeconfig = join(scratch, 'kubeconfig');
    writeFileSync(kubeconfig, k3s.getKubeConfig(), { mode: 0o600 });
    for (const crd of ['ray.io_rayjobs.yaml', 'ray.io_rayclusters.yaml']) {
      const applied = await kubectl(kubeconfig, ['apply', '--server-side', '-f', join(chartPath, 'crds', crd)]);
      expect(applied.stderr).toBe('');
    }
    expect((await kubectl(kubeconfig, ['wait', '--for=condition=Established', 'crd/rayjobs.ray.io', 'crd/rayclusters.ray.io', '--timeout=60s'])).code).toBe(0);

    const loaded = loadConfig(['--kubeconfig', kubeconfig, '--use-kubernetes-proxy', '--enable-leader-election=false', '--metrics-addr=0', '--health-probe-bind-address=0'], {});
    if (loaded.ok !== true) throw new Error(`bad flags: ${JSON.stringify(loaded)}`);
    operator = await startOperator({ config: loaded.config, logger: createLogger({ level: process.env.OPERATOR_TEST_LOG ?? 'silent' }) });

    const status = async (name: string): Promise<string> => (await kubectl(kubeconfig, ['get', 'rayjob', name, '-o', 'jsonpath={.status.jobDeploymentStatus}/{.status.jobStatus}'])).stdout;
    expect((await kubectl(kubeconfig, ['apply', '-f', '-'], invalidRayJob)).code).toBe(0);
    await eventually('the invalid RayJob to be ValidationFailed', async () => (await status('invalid')).startsWith('ValidationFailed'), 60_000, 500);

    // The first run pulls rayproject/ray inside k3s: minutes.
    expect((await kubectl(kubeconfig, ['apply', '-f', '-'], httpModeRayJob)).code).toBe(0);
    const done = await eventually('the HTTPMode RayJob to complete', async () => {
      const s = await status('http-mode');
      if (s.startsWith('Failed')) giveUp(`RayJob failed: ${s}`);
      return s === 'Complete/SUCCEEDED' ? s : undefined;
    }, 25 * 60_000, 2_000);
    expect(done).toBe('Complete/SUCCEEDED');
  });
});
