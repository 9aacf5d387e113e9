// The entrypoint as a real child process: `<shell> -c <entrypoint>` (byte-identical entrypoint) in its own
// process group, as Ray's supervisor does, so stop and cleanup can signal the whole tree.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface DriverProcess {
  pid: number | undefined;
  /** Signals the whole process group; false when it is already gone. */
  signalGroup(signal: NodeJS.Signals): boolean;
  alive(): boolean;
}

export function startDriverProcess(options: {
  shell: string;
  entrypoint: string;
  cwd: string | undefined;
  env: Record<string, string>;
  onOutput: (text: string) => void;
  /** Exit code as Ray reports it: the code, or minus the signal number when killed by a signal. */
  onExit: (exitCode: number) => void;
  onSpawnError: (error: Error) => void;
}): DriverProcess {
  const child = spawn(options.shell, ['-c', options.entrypoint], {
    detached: true,
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', options.onOutput);
  child.stderr.on('data', options.onOutput);
  child.on('error', (error) => {
    if (exited) return;
    exited = true;
    options.onSpawnError(error);
  });

  child.on('exit', (code, signal) => {
    if (exited) return;
    exited = true;
    const exitCode = code ?? -((signal ? constants.signals[signal] : undefined) ?? 1);
    // Output written just before exit may still sit in the pipes: report once they drain (bounded, because a
    // background grandchild may hold them open).
    let reported = false;
    const report = () => {
      if (reported) return;
      reported = true;
      options.onExit(exitCode);
    };
    child.on('close', report);
    setTimeout(report, 200).unref();
  });

  return {
    pid: child.pid,
    signalGroup(signal) {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch {
        return false;
      }
    },
    alive: () => !exited,
  };
}

/** Kills a process group by id, ignoring "no such process". */
export function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}
