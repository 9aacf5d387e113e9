// The operator as its own process, started the way a person runs it outside a cluster
// (`rayjob-operator --kubeconfig ...` with KubeRay's flags), so scenarios can stop and start it (C20) and its
// logs land in a file beside the sandbox's.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const operatorMain = fileURLToPath(new URL('../../../apps/operator/src/main.ts', import.meta.url));

export interface OperatorProcessOptions {
  kubeconfigPath: string;
  logFile: string;
  submitterImage?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
}

export interface OperatorProcess {
  start(): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  running(): boolean;
  /** Exits nobody asked for (a crash), with when and how: a campaign reports them, they are bugs. */
  crashes(): string[];
}

export function operatorProcess(options: OperatorProcessOptions): OperatorProcess {
  let child: ChildProcess | undefined;
  let stopping: ChildProcess | undefined;
  const crashes: string[] = [];
  const log = createWriteStream(options.logFile, { flags: 'a' });
  return {
    start() {
      // A process ended by a signal (SIGKILL after the grace period) has no exit code either: it is not running.
      if (child && child.exitCode === null && child.signalCode === null) return;
      const args = [
        operatorMain,
        `--kubeconfig=${options.kubeconfigPath}`,
        '--metrics-addr=0',
        '--health-probe-bind-address=0',
        '--enable-leader-election=false',
        // Outside the cluster, the head Services' DNS names do not resolve: reach dashboards through the API server.
        '--use-kubernetes-proxy',
        ...(options.submitterImage ? [`--submitter-image=${options.submitterImage}`] : []),
        ...(options.extraArgs ?? []),
      ];
      const started = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
      child = started;
      started.once('exit', (code, signal) => {
        if (stopping !== started) crashes.push(`${new Date().toISOString()} the operator exited (code ${code ?? '-'}, signal ${signal ?? '-'}) without being stopped`);
      });
      child.stdout?.pipe(log, { end: false });
      child.stderr?.pipe(log, { end: false });
    },
    async stop(graceMs = 10_000) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      stopping = running;
      running.kill('SIGTERM');
      const timer = setTimeout(() => running.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    crashes: () => [...crashes],
  };
}
