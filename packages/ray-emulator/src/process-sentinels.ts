// Stand-in processes that carry the titles of Ray's head processes, so the faults a person triggers with
// `kubectl exec <head> -- pkill -f <title>` on a real head work on the emulator too:
//   `ray-dashboard-JobHead-<n>`  the dashboard's JobHead subprocess: killing it restarts JobHead (tails close
//                               1000, 500s for a moment, jobs keep running) and a new incarnation comes back;
//   `ray::DashboardAgent`        the head's agent: killing it is the agent's death (node DEAD, jobs frozen).
// Each sentinel is a `tail --pid=<emulator>` renamed with `exec -a` (so it also ends when the emulator is
// SIGKILLed, never outliving its pod); the emulator watches for its exit. A sentinel that exits because the
// emulator is stopping is not a fault.
import { spawn, type ChildProcess } from 'node:child_process';
import type { RayEmulatorFaults } from './emulator-faults.ts';

export interface ProcessSentinels {
  /** Titles of the sentinels that are alive now (for tests and `ps`). */
  titles(): string[];
  stop(): void;
}

export interface ProcessSentinelOptions {
  /** How long a killed JobHead stays down before its next incarnation (Ray: about 1 s plus start-up). */
  jobHeadDownForMs?: number;
  /** Called when a fault could not be applied (never throws into the child's exit handler). */
  onError?: (error: unknown) => void;
}

function startSentinel(title: string, onExit: () => void): ChildProcess {
  // `exec -a` replaces argv[0], so /proc/<pid>/cmdline (what `pkill -f` matches) starts with the title.
  const child = spawn('bash', ['-c', `exec -a '${title}' tail --pid=${process.pid} -f /dev/null`], { stdio: 'ignore' });
  child.once('exit', onExit);
  return child;
}

export function startProcessSentinels(faults: RayEmulatorFaults, options: ProcessSentinelOptions = {}): ProcessSentinels {
  const onError = options.onError ?? (() => {});
  let stopped = false;
  let incarnation = 0;
  const alive = new Map<string, ChildProcess>();

  const track = (title: string, onKilled: () => void): void => {
    const child = startSentinel(title, () => {
      alive.delete(title);
      if (!stopped) onKilled();
    });
    alive.set(title, child);
  };

  const startJobHead = (): void => {
    track(`ray-dashboard-JobHead-${incarnation}`, () => {
      incarnation += 1;
      const downForMs = options.jobHeadDownForMs ?? 1500;
      faults.restartJobHead({ downForMs }).then(
        () => { if (!stopped) startJobHead(); },
        onError,
      );
    });
  };
  startJobHead();
  track('ray::DashboardAgent', () => { faults.killAgent().catch(onError); });

  return {
    titles: () => [...alive.keys()],
    stop: () => {
      stopped = true;
      for (const child of alive.values()) child.kill('SIGKILL');
      alive.clear();
    },
  };
}
