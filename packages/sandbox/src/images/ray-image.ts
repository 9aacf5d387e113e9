// A ready-made ImageProgram for Ray images, backed by the Ray dashboard emulator
// (@rayjob/ray-emulator's CLI, passed by path so the sandbox does not depend on it). The image puts
// a `ray` command on PATH (ray-shim/ray), so the scripts KubeRay and users run in Ray pods —
// `ulimit -n 65536; ray start --head ... --block`, a worker's `until ray health-check ...` init
// container, `ray start --address=<head>:6379 --block` — run unchanged:
//   `ray start --head` runs the emulator on the dashboard port, its fault control on `controlPort`;
//   `ray start --address=...` registers a worker node with the head's emulator and stays up;
//   `ray health-check` asks the head's dashboard; `ray job ...` runs `jobCommand` (e.g. our submitter).
// Probes that check the GCS are mapped to the emulator's /api/gcs_healthz; raylet and unified health
// checks (/api/local_raylet_healthz, /api/healthz on 52365) are answered by the shim itself.
import { mkdirSync } from 'node:fs';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rayStartLockDir, realRayEnv } from '@rayjob/test-support';
import type { ImageProgram } from '../kubelet/image-program.ts';
import { realRayBinDir } from './real-ray-bin.ts';

export interface RayEmulatorImageOptions {
  /** Absolute path of packages/ray-emulator/src/cli.ts. */
  emulatorCli: string;
  /** Node binary (defaults to this process's). */
  node?: string;
  /** Port of the emulator's fault control inside the head pod. */
  controlPort?: number;
  rayVersion?: string;
  /** argv prefix that `ray job ...` runs with the words after `ray` appended (e.g. the submitter CLI). */
  jobCommand?: string[];
  /** PATH the pods start from (defaults to this process's PATH). */
  basePath?: string;
}

export const rayShimDir = fileURLToPath(new URL('./ray-shim', import.meta.url));

export function rayEmulatorImage(options: RayEmulatorImageOptions): ImageProgram {
  const env: Record<string, string> = {
    PATH: `${rayShimDir}${delimiter}${options.basePath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
    RAYJOB_EMULATOR_CLI: options.emulatorCli,
    RAYJOB_NODE: options.node ?? process.execPath,
    RAYJOB_RAY_CONTROL_PORT: String(options.controlPort ?? 18265),
  };
  if (options.rayVersion !== undefined) env.RAYJOB_RAY_VERSION = options.rayVersion;
  if (options.jobCommand !== undefined) env.RAYJOB_RAY_JOB_COMMAND = JSON.stringify(options.jobCommand);
  return {
    entrypoint: [],
    cmd: ['bash'],
    env,
    // `bash -l` (KubeRay's `bash -lc`) resets PATH from /etc/profile, so the shim is also mounted over
    // /usr/local/sbin, which is on that default PATH (and normally empty).
    mounts: [{ source: rayShimDir, target: '/usr/local/sbin' }],
    rewrite(argv, context) {
      // With loopback pod addresses there is no per-pod port space: the head must bind its pod IP. Either way the
      // head reports its pod IP in /nodes, as a real head does.
      const bind = context.podIP.startsWith('127.') ? [`RAYJOB_BIND_HOST=${context.podIP}`] : [];
      return context.podIP ? ['env', ...bind, `RAYJOB_NODE_IP=${context.podIP}`, ...argv] : argv;
    },
    rewriteProbe(command) {
      // KubeRay's wget checks (Ray < 2.53) become the HTTP GETs they amount to, made by the kubelet itself: as an
      // exec probe each attempt started bash, wget and grep in the pod (~40 ms of CPU, twice a second per pod at
      // the tests' probe time scale). Both servers answer 'success' with 200 and fail with a non-2xx status, so
      // `wget -q ... | grep success` and the status check agree. The GCS check (on the head, after the raylet's,
      // which the head's shim always passes) goes to the emulator's dashboard; a raylet check to the shim's agent.
      const text = command.join(' ');
      if (text.includes('gcs_healthz')) return { httpGet: { path: '/api/gcs_healthz', port: 8265 } };
      const urls = [...text.matchAll(/http:\/\/localhost:(\d+)(\/\S*)/g)];
      const only = urls.length === 1 ? urls[0] : undefined;
      if (only?.[2] === '/api/local_raylet_healthz') return { httpGet: { path: only[2], port: Number(only[1]) } };
      return command;
    },
  };
}

export interface RealRayImageOptions {
  /** Directory holding a real Ray installation's `ray` (e.g. a virtualenv's bin). */
  rayBin: string;
  basePath?: string;
  /** Node binary that runs `ray start`'s start-lock wrapper (defaults to this process's). */
  node?: string;
  /** More environment baked into the image (e.g. NODE_COMPILE_CACHE for the wrapper). */
  env?: Record<string, string>;
  /** The Ray start lock's folder (defaults to @rayjob/test-support's rayStartLockDir()). */
  startLockDir?: string;
}

/**
 * Ray images backed by a real Ray installation on this machine: its bin directory goes on PATH and
 * over /usr/local/sbin (so `bash -l` finds `ray` too), as a generated copy (real-ray-bin.ts) whose `ray start`
 * takes the machine's Ray start lock until the node is up: a cluster's head and workers, and other tests'
 * clusters, start one at a time and then run side by side. With per-pod network namespaces each head has its own
 * ports and IP, so several real Ray clusters can run side by side.
 */
export function realRayImage(options: RealRayImageOptions): ImageProgram {
  const bin = realRayBinDir(options.rayBin, options.node ?? process.execPath);
  // Pods have a /tmp of their own: the lock's folder (in the host's temp folder) is mounted at the same path.
  const startLockDir = options.startLockDir ?? rayStartLockDir();
  mkdirSync(startLockDir, { recursive: true });
  return {
    entrypoint: [],
    cmd: ['bash'],
    env: {
      PATH: [bin, options.rayBin, options.basePath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(delimiter),
      // The dashboard gives each of its subprocess modules 30 s to start, and `ray start` gives the dashboard
      // 60 s; on a shared, loaded CI machine the imports alone can take longer, and the head then exits.
      // A pod's env still overrides these.
      RAY_DASHBOARD_SUBPROCESS_MODULE_WAIT_READY_TIMEOUT: '300',
      RAY_DASHBOARD_STARTUP_TIMEOUT_S: '300',
      // Not raised: the raylet's own wait for the DashboardAgent's ports (~15 s in Ray 2.58, not configurable;
      // under load the agent's imports can miss it and the raylet aborts). `ray start` then exits within its
      // default 30 s and the container restarts, which is quicker than waiting longer for a dead raylet.
      // The start lock keeps other Ray nodes' starts from adding to that load.
      // What every real Ray node of the tests shares (@rayjob/test-support's realRayEnv: usage stats off, CPU cuts).
      ...realRayEnv,
      ...options.env,
      RAYJOB_RAY_START_DIR: startLockDir,
    },
    mounts: [
      { source: bin, target: '/usr/local/sbin' },
      { source: bin, target: bin },
      { source: startLockDir, target: startLockDir, readOnly: false },
    ],
  };
}
