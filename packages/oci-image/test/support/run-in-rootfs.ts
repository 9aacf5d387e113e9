// Runs a command in an unpacked image rootfs as a container runtime would, without one (root needed): a
// private mount namespace, the given files bound into the rootfs, the rootfs as `/`, the image's user and
// environment. Returns the exit code and output.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface RootfsRun {
  rootfs: string;
  argv: string[];
  env: string[];
  user: string;
  binds?: Array<{ source: string; target: string }>;
  timeoutMs?: number;
}

export async function runInRootfs(run: RootfsRun): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const binds = run.binds ?? [];
  for (const bind of binds) {
    const target = join(run.rootfs, bind.target);
    if (!existsSync(target)) {
      mkdirSync(dirname(target), { recursive: true });
      closeSync(openSync(target, 'a'));
    }
  }
  const [uid, gid] = run.user.split(':');
  const script = 'while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 125; shift 2; done; shift; exec "$@"';
  const argv = [
    '/usr/bin/unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', script, 'sh',
    ...binds.flatMap((b) => [b.source, join(run.rootfs, b.target)]), '--',
    '/usr/bin/unshare', `--root=${run.rootfs}`, '--wd=/', `--setgid=${gid ?? uid}`, `--setuid=${uid}`, '--', ...run.argv,
  ];
  const env = Object.fromEntries(run.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  const child = spawn(argv[0] as string, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 20_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
