/**
 * Starts a real single-node Ray head for tests, the way KubeRay's head container does
 * (`ray start --head --block`), bound to loopback only, and stops it leaving nothing behind.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { holdRayStartLock, realRayEnv } from '@rayjob/test-support';
import { pollUntil, sleep } from '../probe/deadline.ts';
import { httpRequest } from '../probe/http.ts';
import { freePort, tcpOpen } from './free-port.ts';
import { realHeadFaults, type RealHeadFaults } from './faults.ts';
import { HEAD_MARKER_ENV, listHeadProcesses, signalProcess, type HeadIdentity, type HeadProcess } from './process-table.ts';
import { rayVenvPath } from './provision.ts';

export type RealRayHeadOptions = {
  venv?: string;
  numCpus?: number;
  /** Enables Ray's token auth (`RAY_AUTH_MODE=token`) with this token. */
  authToken?: string;
  /** Extra environment for every Ray process (e.g. RAY_JOB_START_TIMEOUT_SECONDS). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /**
   * Run `ray start --head --block` (KubeRay's head command; default). With `--block`, Ray
   * kills the whole head when any of its subprocesses exits, e.g. the client server, which
   * gives up after 30 s when the dashboard starts slowly on a loaded machine (observed).
   * Without it, `ray start` returns once everything is started and the head lives on.
   */
  block?: boolean;
};

export type RealRayHead = {
  /** Dashboard base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The head DashboardAgent's HTTP base URL. */
  agentUrl: string;
  marker: string;
  /** How to find this head's processes (see process-table.ts). */
  identity: HeadIdentity;
  tempDir: string;
  /** Milliseconds from spawn until the dashboard, GCS and agent all answered. */
  startupMs: number;
  pids(): Promise<HeadProcess[]>;
  rssMb(): Promise<number>;
  faults: RealHeadFaults;
  /** Whether the head was started with `--block`. */
  blocking: boolean;
  /** Whether the `ray start --block` process is still running (false without `--block`). */
  blockProcessAlive(): boolean;
  logTail(chars?: number): Promise<string>;
  stop(): Promise<void>;
};

/**
 * Starts a head. If `ray start --block` takes the head down during startup (see `block`),
 * tries once more on fresh ports without `--block`, where a late client server cannot take
 * the Jobs API down with it. Any other failure, or a second one, is thrown with Ray's output.
 */
export async function startRealRayHead(options: RealRayHeadOptions = {}): Promise<RealRayHead> {
  try {
    return await startOnce(options);
  } catch (error) {
    if (!(error instanceof HeadExitedEarly) || options.block === false) throw error;
    console.warn(`real Ray head exited during startup; retrying once without --block. ${error.message.split('\n')[0]}`);
    return startOnce({ ...options, block: false });
  }
}

class HeadExitedEarly extends Error {}

type HeadPorts = { dashboardPort: number; gcsPort: number; clientPort: number; agentPort: number };

/**
 * The environment of every Ray process of the head: the settings every real Ray node of the tests shares
 * (realRayEnv), then the caller's, without anything pointing at another cluster.
 */
function headEnv(options: RealRayHeadOptions, marker: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...realRayEnv, ...options.env };
  for (const name of ['RAY_ADDRESS', 'RAY_API_SERVER_ADDRESS', 'RAY_AUTH_MODE', 'RAY_AUTH_TOKEN', 'RAY_AUTH_TOKEN_PATH']) delete env[name];
  Object.assign(env, {
    [HEAD_MARKER_ENV]: marker,
    // Without this Ray replaces 127.0.0.1 by the machine's outward address (see FINDINGS.md).
    RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER: '0',
    // The dashboard gives each module subprocess 30 s to start, which a loaded 2-core
    // machine can miss (observed: "Module MetricsHead failed to start"); the head then dies.
    RAY_DASHBOARD_SUBPROCESS_MODULE_WAIT_READY_TIMEOUT: '150',
    // `ray start` gives the dashboard 60 s to publish its URL, then exits 1 ("Failed to
    // start the dashboard"); observed at load average ~25.
    RAY_DASHBOARD_STARTUP_TIMEOUT_S: '170',
    ...(options.authToken ? { RAY_AUTH_MODE: 'token', RAY_AUTH_TOKEN: options.authToken } : {}),
  });
  return env;
}

function rayStartArgs(blocking: boolean, ports: HeadPorts, numCpus: number, tempDir: string): string[] {
  return [
    'start', '--head', ...(blocking ? ['--block'] : []), '--disable-usage-stats',
    '--node-ip-address=127.0.0.1', '--dashboard-host=127.0.0.1', '--include-dashboard=true',
    `--dashboard-port=${ports.dashboardPort}`, `--port=${ports.gcsPort}`, `--ray-client-server-port=${ports.clientPort}`,
    `--dashboard-agent-listen-port=${ports.agentPort}`, `--num-cpus=${numCpus}`, `--temp-dir=${tempDir}/t`,
  ];
}

/** The spawned `ray start` and how to read its output and stop everything it started. */
type SpawnedHead = {
  identity: HeadIdentity;
  exited(): { code: number | null; signal: string | null } | undefined;
  logTail(chars?: number): Promise<string>;
  stop(): Promise<void>;
};

async function spawnHead(venv: string, args: string[], env: NodeJS.ProcessEnv, tempDir: string, marker: string): Promise<SpawnedHead> {
  const logPath = path.join(tempDir, 'ray-start.log');
  const log = createWriteStream(logPath);
  await new Promise((resolve) => log.on('open', resolve));
  const child = spawn(path.join(venv, 'bin', 'ray'), args, { env, detached: true, stdio: ['ignore', log, log], cwd: tempDir });
  if (child.pid === undefined) throw new Error(`cannot run ${path.join(venv, 'bin', 'ray')}: is the venv provisioned?`);
  // detached: the child leads a new session, whose id is its pid.
  const identity: HeadIdentity = { marker, sessionId: child.pid };
  let exited: { code: number | null; signal: string | null } | undefined;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const childExited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Last resort if the test process exits without calling stop() (e.g. vitest tears a
  // worker down mid-start): kill the head's process group synchronously. The detached
  // child leads that group, and Ray's daemons stay in it (job entrypoints do not, but
  // they die with their supervisor's watchdog).
  const killGroupOnExit = (): void => {
    if (child.pid !== undefined) signalProcess(-child.pid, 'SIGKILL');
  };
  process.on('exit', killGroupOnExit);

  const stop = async (): Promise<void> => {
    // SIGKILL everything carrying the marker until nothing does; a crash-stop is fine for
    // a throw-away test head and cannot hang on Ray's own shutdown.
    await pollUntil(
      async () => {
        const left = await listHeadProcesses(identity);
        for (const p of left) signalProcess(p.pid, 'SIGKILL');
        return left.length === 0 ? true : undefined;
      },
      { what: `head ${marker} processes to exit`, timeoutMs: 20_000, intervalMs: 200 },
    );
    if (!exited) await Promise.race([childExited, sleep(5_000)]);
    process.off('exit', killGroupOnExit);
    log.end();
    // RAYJOB_KEEP_RAY_LOGS=1 keeps the session logs for a post-mortem.
    if (process.env.RAYJOB_KEEP_RAY_LOGS === '1') console.log(`ray head logs kept in ${tempDir}`);
    else await rm(tempDir, { recursive: true, force: true });
  };
  return {
    identity,
    exited: () => exited,
    logTail: async (chars = 3000) => (await readFile(logPath, 'utf8').catch(() => '')).slice(-chars),
    stop,
  };
}

/** `ray start` exiting counts as the head dying, unless it was started without `--block` and exited 0 (its normal end). */
const exitedEarly = (head: SpawnedHead, blocking: boolean): boolean => {
  const exited = head.exited();
  return exited !== undefined && (blocking || exited.code !== 0);
};

/**
 * Waits until the dashboard, the GCS, the head's agent (and with `--block` the client server) answer;
 * on failure stops the head and throws with Ray's output (HeadExitedEarly when `ray start` died).
 */
async function waitReady(head: SpawnedHead, target: { url: string; agentUrl: string; clientPort: number; blocking: boolean }, options: RealRayHeadOptions): Promise<void> {
  const { url, agentUrl, clientPort, blocking } = target;
  const authHeaders: Record<string, string> = options.authToken ? { authorization: `Bearer ${options.authToken}` } : {};
  const answers200 = async (address: string, headers: Record<string, string> = {}): Promise<true | undefined> => {
    if (exitedEarly(head, blocking)) throw new HeadExitedEarly(`ray start exited early (${JSON.stringify(head.exited())}):\n${await head.logTail()}`);
    const res = await httpRequest(address, { headers, timeoutMs: 3_000 });
    return res.kind === 'response' && res.status === 200 ? true : undefined;
  };
  const fatal = (error: unknown) => error instanceof HeadExitedEarly;
  try {
    const timeoutMs = options.startTimeoutMs ?? 180_000;
    await pollUntil(() => answers200(`${url}/api/gcs_healthz`), { what: 'the dashboard /api/gcs_healthz', timeoutMs, intervalMs: 250, fatal });
    await pollUntil(() => answers200(`${url}/api/version`, authHeaders), { what: 'the dashboard /api/version', timeoutMs, intervalMs: 250, fatal });
    // Submissions go to the head's agent, which starts after the dashboard.
    await pollUntil(() => answers200(`${agentUrl}/api/healthz`), { what: 'the head DashboardAgent /api/healthz', timeoutMs, intervalMs: 250, fatal });
    // The client server listens only once it has found its node in GCS; if it gives up,
    // `--block` takes the whole head down, so the head is not ready before that.
    // Without --block the client server's fate does not matter to the Jobs API.
    if (blocking) await pollUntil(async () => ((await answers200(`${agentUrl}/api/healthz`)) && (await tcpOpen(clientPort)) ? true : undefined), {
      what: 'the Ray client server port',
      timeoutMs,
      intervalMs: 250,
      fatal,
    });
  } catch (error) {
    const tail = await head.logTail();
    await head.stop();
    const message = `real Ray head did not start: ${(error as Error).message}\n--- ray start output ---\n${tail}`;
    throw exitedEarly(head, blocking) ? new HeadExitedEarly(message) : new Error(message);
  }
}

async function startOnce(options: RealRayHeadOptions): Promise<RealRayHead> {
  const venv = options.venv ?? rayVenvPath();
  const blocking = options.block ?? true;
  // Short root: Ray's unix socket paths live under it and must stay under 107 bytes.
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'rayjob-head-'));
  const marker = `${path.basename(tempDir)}-${randomBytes(3).toString('hex')}`;
  const [dashboardPort, gcsPort, clientPort, agentPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const url = `http://127.0.0.1:${dashboardPort}`;
  const agentUrl = `http://127.0.0.1:${agentPort}`;
  const args = rayStartArgs(blocking, { dashboardPort, gcsPort, clientPort, agentPort }, options.numCpus ?? 2, tempDir);

  // The machine's Ray start lock, from just before `ray start` until the head answers (or failed): a starting head
  // is ~25 CPU-seconds of Python imports, and two at once on 2 cores miss Ray's own startup deadlines.
  const startLock = await holdRayStartLock(`head ${marker}`, { print: (line) => process.stdout.write(`${line}\n`) });
  const started = Date.now();
  let head: SpawnedHead;
  try {
    head = await spawnHead(venv, args, headEnv(options, marker), tempDir, marker);
    await waitReady(head, { url, agentUrl, clientPort, blocking }, options);
  } catch (error) {
    await startLock.release('failed');
    throw error;
  }
  const startupMs = Date.now() - started;
  await startLock.release('up');
  const { identity } = head;

  return {
    url,
    agentUrl,
    marker,
    identity,
    tempDir,
    startupMs,
    pids: () => listHeadProcesses(identity),
    rssMb: async () => Math.round((await listHeadProcesses(identity)).reduce((sum, p) => sum + p.rssKb, 0) / 1024),
    faults: realHeadFaults(identity),
    blocking,
    blockProcessAlive: () => blocking && head.exited() === undefined,
    logTail: head.logTail,
    stop: head.stop,
  };
}
