// `npm start`: a local cluster with the operator running in it. Starts the sandbox (API server with the ray.io
// CRDs, Job controller, kubelet running pods as processes, cluster DNS), maps the images a newcomer's first
// commands use as `rayjob-sandbox up` does (busybox, alpine, debian, ubuntu, python, node -> the host's shell,
// python and node; our operator image), Ray images to the Ray emulator (or real Ray with --real-ray where the
// real-Ray tier is provisioned) and our submitter image to our submitter; `--image NAME=COMMAND` maps more, and
// `--image-layout NAME=DIR` runs NAME from a built OCI image (e.g. ghcr.io/rayjob/submitter=dist/images/submitter/oci).
// Starts the operator (every registered controller) against it, prints the kubeconfig path and stays up until
// SIGTERM/SIGINT. Dev only (a dev package's code): never part of the operator's bundle.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger } from '@rayjob/kube-runtime';
import { loadConfig, startOperator } from '@rayjob/operator';
import { defaultImages, imageLayoutFlag, parseImageFlag, startSandbox } from '@rayjob/sandbox';

const repoPath = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const RAY_CRDS = [repoPath('packages/core/crds/ray.io_rayjobs.yaml'), repoPath('packages/core/crds/ray.io_rayclusters.yaml')];

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    port: { type: 'string' },
    'real-ray': { type: 'boolean' },
    image: { type: 'string', multiple: true },
    'image-layout': { type: 'string', multiple: true },
    'operator-flag': { type: 'string', multiple: true },
  },
});
const dir = resolve(values.dir ?? join(tmpdir(), 'rayjob-sandbox'));
mkdirSync(dir, { recursive: true });
const operatorArgv = ['--enable-leader-election=false', '--metrics-addr=0', '--health-probe-bind-address=0', ...(values['operator-flag'] ?? [])];
const loaded = loadConfig([...operatorArgv, '--kubeconfig', join(dir, 'kubeconfig')], process.env);
if (loaded.ok !== true) {
  process.stderr.write(`rayjob up: ${loaded.ok === false ? loaded.message : 'unexpected --help'}\n`);
  process.exit(2);
}
// The sandbox's one image catalog: Ray images run the emulator (or real Ray with --real-ray), the operator's
// submitter image runs this checkout's submitter source.
const images = defaultImages({
  repoRoot: repoPath(''),
  realRayBin: values['real-ray'] ? undefined : null,
  fromSource: true,
  submitterImages: [loaded.config.submitterImage],
  rayJobsThroughSubmitter: false,
});
for (const flag of values.image ?? []) {
  const parsed = parseImageFlag(flag);
  if (!parsed.ok) {
    process.stderr.write(`rayjob up: ${parsed.message}\n`);
    process.exit(2);
  }
  images[parsed.name] = parsed.program;
}
// --image-layout NAME=DIR: NAME runs from its built image (npm run images), in its rootfs, as a cluster runs it.
for (const flag of values['image-layout'] ?? []) {
  const parsed = await imageLayoutFlag(flag, join(dir, 'images'));
  if (!parsed.ok) {
    process.stderr.write(`rayjob up: ${parsed.message}\n`);
    process.exit(2);
  }
  images[parsed.name] = parsed.program;
}
const sandbox = await startSandbox({
  dir,
  crds: RAY_CRDS,
  images,
  ...(values.port !== undefined && { apiServer: { port: Number(values.port) } }),
});
const operator = await startOperator({
  config: { ...loaded.config, kubeconfig: sandbox.kubeconfigPath },
  // stdout carries the kubeconfig path (scripts read it); the operator's JSON logs go to stderr.
  logger: createLogger({ level: loaded.config.logLevel, destination: process.stderr }),
  ...(sandbox.node && { dashboardLookup: sandbox.node.lookup }),
});
writeFileSync(join(dir, 'sandbox.pid'), String(process.pid));
process.stdout.write(`${sandbox.kubeconfigPath}\n`);
process.stderr.write(`rayjob up: API server ${sandbox.url}; operator running (${Object.keys(operator.controllers).join(', ')}); export KUBECONFIG=${sandbox.kubeconfigPath}\n`);
// kubectl sends a --token (or a kubeconfig's token) over TLS only: acting as a ServiceAccount needs the HTTPS one.
if (sandbox.apiServer.https) process.stderr.write(`rayjob up: to act as a ServiceAccount (kubectl --token=$(kubectl create token NAME) ...) use KUBECONFIG=${sandbox.apiServer.https.kubeconfigPath}; kubectl sends tokens over TLS only\n`);
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await operator.stop();
  await sandbox.stop();
  rmSync(join(dir, 'sandbox.pid'), { force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
