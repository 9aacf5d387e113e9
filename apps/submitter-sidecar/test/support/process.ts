// Runs the real artifact as a child process: the bundle (node dist/submitter.mjs) or the image's entry
// script (bin/submitter), capturing output and bounding every wait.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { binPath, bundlePath } from './build-bundle.ts';

export interface SubmitterProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForExit(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnSubmitter(
  args: string[],
  env: Record<string, string>,
  how: 'bundle' | 'image-entry' = 'bundle',
): SubmitterProcess {
  const nodeDir = dirname(process.execPath);
  const baseEnv: Record<string, string> = { PATH: `${nodeDir}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp' };
  const child =
    how === 'bundle'
      ? spawn(process.execPath, [bundlePath, ...args], { env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(binPath, args, { env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (err += t));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForExit(timeoutMs = 15_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`submitter did not exit within ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
