// The `ray` command inside sandbox pods of Ray images (put first on PATH by rayEmulatorImage), so
// the shell scripts KubeRay and users put in Ray pods run unchanged:
//   ray start --head [--dashboard-port=P] [--block]   the Ray dashboard emulator (in this process with
//                                                      --block; otherwise started in the background
//                                                      and left running once it answers, like Ray)
//   ray start --address=HOST:PORT [--block]           registers a worker node with the head's emulator
//   ray health-check --address=HOST:PORT              exit 0 when the head's dashboard is healthy
//   ray job ...                                       delegated to RAYJOB_RAY_JOB_COMMAND (a JSON argv)
//   ray kuberay-autoscaler --cluster-name C ...      a stand-in for Ray's autoscaler (kuberay-autoscaler.mjs)
//   ray stop | ray status                             best effort
// Head and worker (with --block) also answer the dashboard agent's health checks on port 52365.
// Settings come from the environment the image sets: RAYJOB_EMULATOR_CLI, RAYJOB_NODE,
// RAYJOB_RAY_CONTROL_PORT, RAYJOB_RAY_VERSION, RAYJOB_BIND_HOST, RAYJOB_NODE_IP, RAYJOB_DASHBOARD_PORT.
// Only node:net is loaded up front: every `ray` in a pod is a node start (a worker's wait-gcs-ready loop runs
// `ray health-check` every 5 s), and node:http or fetch add ~0.1 CPU-s to each; commands that serve or spawn load
// what they need.
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const env = process.env;
const node = env.RAYJOB_NODE || process.execPath;
const controlPort = env.RAYJOB_RAY_CONTROL_PORT || '18265';
const dashboardPort = env.RAYJOB_DASHBOARD_PORT || '8265';

function flag(name) {
  for (const [i, word] of args.entries()) {
    if (word === name) return args[i + 1];
    if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
  }
  return undefined;
}

const hostOf = (address) => (address ?? '').replace(/^[a-z]+:\/\//, '').replace(/:\d+$/, '');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// GET /api/gcs_healthz over a plain socket (HTTP/1.1, Connection: close): healthy when the status is 2xx.
function healthy(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    let head = '';
    const socket = connect({ host, port: Number(port) });
    const done = (ok) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => socket.write(`GET /api/gcs_healthz HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const line = head.indexOf('\r\n');
      if (line >= 0) done(/^HTTP\/1\.[01] 2\d\d /.test(head.slice(0, line + 1)));
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

async function foreground(argv) {
  const { spawn } = await import('node:child_process');
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15)));
}

// The dashboard agent's health endpoints on --dashboard-agent-listen-port (52365), which KubeRay's probes hit:
// /api/local_raylet_healthz (this node is up) and /api/healthz (Ray >= 2.53; on the head it includes the GCS).
async function serveAgent(isHead, dashboard) {
  const { createServer } = await import('node:http');
  const port = Number(flag('--dashboard-agent-listen-port') ?? '52365');
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/api/healthz' && path !== '/api/local_raylet_healthz') { res.writeHead(404).end('Not Found'); return; }
    const ok = !isHead || path === '/api/local_raylet_healthz' || (await healthy(env.RAYJOB_BIND_HOST || '127.0.0.1', dashboard, 1000));
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'success' : 'GCS is not healthy');
  });
  server.on('error', (error) => console.error(`ray (sandbox): agent port ${port}: ${error.message}`));
  server.listen(port, env.RAYJOB_BIND_HOST || '0.0.0.0');
  server.unref();
}

async function startHead() {
  const cli = env.RAYJOB_EMULATOR_CLI;
  if (!cli) { console.error('ray (sandbox): RAYJOB_EMULATOR_CLI is not set'); process.exit(1); }
  const port = flag('--dashboard-port') ?? dashboardPort;
  const argv = [node, cli, '--host', env.RAYJOB_BIND_HOST || '0.0.0.0', '--port', port, '--faults', '--faults-port', controlPort, '--process-titles'];
  if (env.RAYJOB_RAY_VERSION) argv.push('--ray-version', env.RAYJOB_RAY_VERSION);
  // A real head reports its pod's IP in /nodes (the submitter compares it with the head its attempt started on).
  if (env.RAYJOB_NODE_IP) argv.push('--node-ip', env.RAYJOB_NODE_IP);
  if (args.includes('--block')) {
    // The emulator runs in this process (its CLI as if started with argv): a second node process per head
    // cost ~0.3 CPU-s to start and changed nothing a test sees: its SIGTERM/SIGINT handling and exit codes
    // become this process's, as the foreground child's were, and its sentinels follow this pid.
    await serveAgent(true, port);
    process.argv = argv;
    await import(pathToFileURL(cli).href);
    return;
  }
  const { spawn } = await import('node:child_process');
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', detached: true });
  child.unref();
  const local = env.RAYJOB_BIND_HOST || '127.0.0.1';
  for (let i = 0; i < 300; i += 1) {
    if (await healthy(local, port, 500)) { console.log('Ray runtime started.'); process.exit(0); }
    await sleep(100);
  }
  console.error('ray (sandbox): the head did not come up within 30 s');
  process.exit(1);
}

// POST with node:http (which the worker loads anyway to serve the agent port), not fetch (~0.05 CPU-s more to load).
async function post(host, port, path, body) {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ host, port: Number(port), path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function startWorker() {
  const head = hostOf(flag('--address') ?? env.RAY_ADDRESS);
  for (;;) {
    try {
      const response = await post(head, controlPort, '/addWorkerNode', JSON.stringify({ resources: {} }));
      if (response.ok) { console.log(`worker registered with head ${head}: ${response.text}`); break; }
    } catch (error) {
      console.log(`waiting for head ${head}: ${error.message}`);
    }
    await sleep(500);
  }
  if (!args.includes('--block')) process.exit(0);
  await serveAgent(false);
  process.on('SIGTERM', () => process.exit(0));
  setInterval(() => {}, 1 << 30);
}

const [command] = args;
if (command === 'start') {
  await (args.includes('--head') ? startHead() : startWorker());
} else if (command === 'health-check') {
  const address = flag('--address') ?? env.RAY_ADDRESS ?? '127.0.0.1:6379';
  process.exit((await healthy(hostOf(address), dashboardPort)) ? 0 : 1);
} else if (command === 'job') {
  let prefix;
  try { prefix = JSON.parse(env.RAYJOB_RAY_JOB_COMMAND ?? 'null'); } catch { prefix = null; }
  if (!Array.isArray(prefix) || prefix.length === 0) {
    console.error('ray (sandbox): `ray job` needs RAYJOB_RAY_JOB_COMMAND (rayEmulatorImage option jobCommand)');
    process.exit(1);
  }
  await foreground([...prefix, ...args]);
} else if (command === 'kuberay-autoscaler') {
  const { runAutoscaler } = await import('./kuberay-autoscaler.mjs');
  await runAutoscaler(args.slice(1), env);
} else if (command === 'stop' || command === 'status') {
  process.exit(0);
} else {
  console.error(`ray (sandbox): "ray ${command ?? ''}" is not emulated`);
  process.exit(1);
}
