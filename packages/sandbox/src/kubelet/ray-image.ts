// A ready-made ImageProgram for Ray images, backed by the Ray dashboard emulator
// (@rayjob/ray-emulator's CLI, passed by path so the sandbox does not depend on it):
//   `ray start --head ...` (usually inside `bash -lc "ulimit ...; ray start --head ..."`) runs the
//   emulator on the pod's dashboard port with its fault control on `controlPort`;
//   `ray start --address=<head>:6379` on a worker registers a worker node with the head's emulator
//   and then stays up, like a worker raylet;
//   anything else (an entrypoint run in the image, `python script.py`) runs as given.
// Readiness probes that hit the raylet/GCS health endpoints are mapped to the emulator's
// /api/gcs_healthz, since the emulator serves the dashboard only.
import type { ImageProgram } from './image-program.ts';

export interface RayEmulatorImageOptions {
  /** Absolute path of packages/ray-emulator/src/cli.ts. */
  emulatorCli: string;
  /** Node binary (defaults to this process's). */
  node?: string;
  /** Port of the emulator's fault control inside the head pod. */
  controlPort?: number;
  rayVersion?: string;
}

function flagValue(words: string[], flag: string): string | undefined {
  for (const [i, word] of words.entries()) {
    if (word === flag) return words[i + 1];
    if (word.startsWith(`${flag}=`)) return word.slice(flag.length + 1);
  }
  return undefined;
}

/** The words after `ray start` in any argv element (shell strings included), or undefined. */
export function rayStartWords(argv: string[]): string[] | undefined {
  // Exec form: ["ray", "start", ...] (or a path to ray).
  if (/(^|\/)ray$/.test(argv[0] ?? '') && argv[1] === 'start') return argv.slice(2);
  for (const item of argv) {
    const match = /(?:^|[\s;&|])ray\s+start(\s[^;&|]*)?/.exec(item);
    if (match !== null) return (match[1] ?? '').trim().split(/\s+/).filter((w) => w !== '').map((w) => w.replace(/^["']|["']$/g, ''));
  }
  return undefined;
}

const workerScript = `
const [host, port] = process.argv.slice(1);
const body = JSON.stringify({ resources: {} });
const attempt = async () => {
  try {
    const r = await fetch('http://' + host + ':' + port + '/addWorkerNode', { method: 'POST', body });
    if (r.ok) { console.log('worker registered with head ' + host + ': ' + (await r.text())); return; }
  } catch (e) { console.log('waiting for head ' + host + ': ' + e.message); }
  setTimeout(attempt, 500);
};
attempt();
setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => process.exit(0));
`;

export function rayEmulatorImage(options: RayEmulatorImageOptions): ImageProgram {
  const node = options.node ?? process.execPath;
  const controlPort = String(options.controlPort ?? 18265);
  return {
    entrypoint: [],
    cmd: ['bash'],
    rewrite(argv, context) {
      const words = rayStartWords(argv);
      if (words === undefined) return argv;
      if (words.includes('--head')) {
        // In a pod network namespace 0.0.0.0 is the pod's own; with loopback addresses bind the pod IP.
        const host = context.podIP.startsWith('127.') ? context.podIP : '0.0.0.0';
        const out = [node, options.emulatorCli, '--host', host, '--port', flagValue(words, '--dashboard-port') ?? '8265', '--faults', '--faults-port', controlPort];
        if (options.rayVersion !== undefined) out.push('--ray-version', options.rayVersion);
        return out;
      }
      const address = flagValue(words, '--address') ?? '';
      const head = address.replace(/:\d+$/, '');
      return [node, '-e', workerScript, head, controlPort];
    },
    rewriteProbe(command) {
      const text = command.join(' ');
      if (!text.includes('healthz')) return command;
      return ['wget', '-T', '2', '-q', '-O-', 'http://localhost:8265/api/gcs_healthz'];
    },
  };
}
