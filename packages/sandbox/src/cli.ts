#!/usr/bin/env node
// rayjob-sandbox up [--dir D] [--crds file...] [--image NAME=COMMAND ...] [--image-layout NAME=DIR ...] [--no-kubelet] [--no-job-controller] [--port N]
//   starts a sandbox, prints the kubeconfig path, stays up until SIGTERM/SIGINT. Common images (busybox,
//   python, rayproject/ray, ours...) are mapped by default (images/default-images.ts); --image adds or overrides.
// rayjob-sandbox down [--dir D]
//   stops the sandbox running in D (pid file), waits for it to exit, removes D.
// rayjob-sandbox node (--kubeconfig FILE | --api-server URL) [--dir D] [--node-name N] [--endpoints-controller] [--image ...]
//   joins the sandbox's node (kubelet, pod network, cluster DNS) to another API server over REST; stops on SIGTERM.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultImages, parseImageFlag } from './images/default-images.ts';
import { imageLayoutFlag } from './images/oci-layout-image.ts';
import type { ImageCatalog } from './kubelet/image-program.ts';
import { joinNode } from './join-node.ts';
import { startSandbox } from './sandbox.ts';

const usage = `usage:
  rayjob-sandbox up [--dir DIR] [--crds FILE ...] [--image NAME=COMMAND ...] [--image-layout NAME=DIR ...] [--port N] [--no-kubelet] [--no-job-controller]
  rayjob-sandbox down [--dir DIR]
  rayjob-sandbox node (--kubeconfig FILE | --api-server URL) [--dir DIR] [--node-name NAME] [--endpoints-controller]
                      [--kubelet-client-ca FILE] [--image NAME=COMMAND ...] [--image-layout NAME=DIR ...]
    joins this machine as a node of another API server (a real kube-apiserver): registers the Node, binds and runs
    its pods as processes with pod IPs the API server reaches, serves logs/exec to clients of the kubeconfig's CA
    (or --kubelet-client-ca). It binds every unscheduled pod (no scheduler needed), so it needs admin-like rights.
    --endpoints-controller also runs the sandbox's (a real cluster's controller manager has its own).
DIR defaults to ${join(tmpdir(), 'rayjob-sandbox')}.
Images run as local programs. Mapped by default: busybox, alpine (sh), debian, ubuntu (bash), python (python3),
node, rayproject/ray (real Ray if provisioned, else the Ray emulator), ghcr.io/rayjob/submitter and
ghcr.io/rayjob/operator (this checkout). --image NAME=COMMAND maps NAME (a repository, any tag) to COMMAND
as its ENTRYPOINT, e.g. --image myorg/trainer=/usr/bin/python3. --image-layout NAME=DIR runs NAME from the OCI
image layout DIR as a cluster would (its rootfs as /, its user, entrypoint and env), e.g. the images
\`npm run images\` builds: --image-layout ghcr.io/rayjob/submitter=dist/images/submitter/oci.`;

const pidFile = (dir: string): string => join(dir, 'sandbox.pid');

function fail(message: string): never {
  process.stderr.write(`rayjob-sandbox: ${message}\n${usage}\n`);
  process.exit(2);
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function up(dir: string, crds: string[], images: ImageCatalog, port: number | undefined, kubelet: boolean, jobController: boolean): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (existsSync(pidFile(dir))) {
    const pid = Number(readFileSync(pidFile(dir), 'utf8'));
    if (isAlive(pid)) fail(`a sandbox is already running in ${dir} (pid ${pid}); run \`rayjob-sandbox down --dir ${dir}\` first`);
  }
  const sandbox = await startSandbox({
    dir,
    crds: crds.map((c) => resolve(c)),
    images,
    kubelet,
    jobController,
    ...(port !== undefined && { apiServer: { port } }),
  });
  writeFileSync(pidFile(dir), String(process.pid));
  process.stdout.write(`${sandbox.kubeconfigPath}\n`);
  process.stderr.write(`rayjob-sandbox: API server ${sandbox.url}; export KUBECONFIG=${sandbox.kubeconfigPath}\n`);
  // kubectl sends a --token (or a kubeconfig's token) over TLS only: acting as a ServiceAccount needs the HTTPS one.
  if (sandbox.apiServer.https) process.stderr.write(`rayjob-sandbox: to act as a ServiceAccount (kubectl --token=$(kubectl create token NAME) ...) use KUBECONFIG=${sandbox.apiServer.https.kubeconfigPath}; kubectl sends tokens over TLS only\n`);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await sandbox.stop();
    rmSync(pidFile(dir), { force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

async function node(dir: string, images: ImageCatalog): Promise<void> {
  const kubeconfig = values.kubeconfig;
  const server = values['api-server'];
  if ((kubeconfig === undefined) === (server === undefined)) fail('node: give exactly one of --kubeconfig FILE and --api-server URL');
  mkdirSync(dir, { recursive: true });
  const joined = await joinNode({
    connection: kubeconfig !== undefined ? { kubeconfigPath: resolve(kubeconfig) } : { server: server ?? '' },
    dir,
    images,
    endpointsController: values['endpoints-controller'] === true,
    ...(values['node-name'] !== undefined && { nodeName: values['node-name'] }),
    ...(values['kubelet-client-ca'] !== undefined && { kubeletClientCA: readFileSync(values['kubelet-client-ca'], 'utf8') }),
  });
  writeFileSync(pidFile(dir), String(process.pid));
  process.stderr.write(`rayjob-sandbox: node ${joined.kubelet.nodeName} joined (pod network ${joined.network.cidr}, kubelet on ${joined.network.gatewayIP}:${joined.kubelet.server?.port ?? '-'}); stop with SIGTERM or \`rayjob-sandbox down --dir ${dir}\`\n`);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await joined.stop();
    rmSync(pidFile(dir), { force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function down(dir: string): Promise<void> {
  if (existsSync(pidFile(dir))) {
    const pid = Number(readFileSync(pidFile(dir), 'utf8'));
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 15_000;
      while (isAlive(pid)) {
        if (Date.now() > deadline) {
          process.kill(pid, 'SIGKILL');
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`stopped; removed ${dir}\n`);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    crds: { type: 'string', multiple: true },
    image: { type: 'string', multiple: true },
    'image-layout': { type: 'string', multiple: true },
    port: { type: 'string' },
    'no-kubelet': { type: 'boolean' },
    'no-job-controller': { type: 'boolean' },
    kubeconfig: { type: 'string' },
    'api-server': { type: 'string' },
    'node-name': { type: 'string' },
    'endpoints-controller': { type: 'boolean' },
    'kubelet-client-ca': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const dir = resolve(values.dir ?? join(tmpdir(), 'rayjob-sandbox'));
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) fail(`--port must be an integer 0-65535, got ${values.port}`);
if (values.help) {
  process.stdout.write(`${usage}\n`);
} else if (positionals[0] === 'up' || positionals[0] === 'node') {
  const images = defaultImages({ repoRoot });
  for (const flag of values.image ?? []) {
    const parsed = parseImageFlag(flag);
    if (!parsed.ok) fail(parsed.message);
    images[parsed.name] = parsed.program;
  }
  for (const flag of values['image-layout'] ?? []) {
    const parsed = await imageLayoutFlag(flag, join(dir, 'images'));
    if (!parsed.ok) fail(parsed.message);
    images[parsed.name] = parsed.program;
  }
  if (positionals[0] === 'node') await node(dir, images);
  else await up(dir, values.crds ?? [], images, port, !values['no-kubelet'], !values['no-job-controller']);
} else if (positionals[0] === 'down') {
  await down(dir);
} else {
  fail(positionals[0] === undefined ? 'missing command' : `unknown command "${positionals[0]}"`);
}
