// Container logs, as the kubelet writes them and serves them on its endpoint (/containerLogs, which the API
// server's pods/log proxies to): <dir>/pods/<namespace>/<pod>/<container>.log, and <container>.previous.log for
// the run before the last restart. Each file holds one run's stdout and stderr interleaved as written (no
// timestamps added). A pod's first run starts from empty files (a new pod with an old pod's name must not show
// the old pod's logs).
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function podLogPath(dir: string, namespace: string, pod: string, container: string, previous = false): string {
  return join(dir, 'pods', namespace, pod, `${container}${previous ? '.previous' : ''}.log`);
}

export function podLogDir(sandboxDir: string, namespace: string, pod: string): string {
  return dirname(podLogPath(sandboxDir, namespace, pod, 'x'));
}

export const podLogsRoot = (sandboxDir: string): string => join(sandboxDir, 'pods');

/** The file a container run writes to; rotates the previous run's log on restart. */
export function prepareContainerLog(sandboxDir: string, ref: { namespace: string; pod: string; container: string; firstRun: boolean }): string {
  const current = podLogPath(sandboxDir, ref.namespace, ref.pod, ref.container);
  const previous = podLogPath(sandboxDir, ref.namespace, ref.pod, ref.container, true);
  mkdirSync(dirname(current), { recursive: true });
  if (ref.firstRun) {
    rmSync(current, { force: true });
    rmSync(previous, { force: true });
  } else if (existsSync(current)) {
    renameSync(current, previous);
  }
  return current;
}
