/**
 * Fault injection on a real local Ray head: find one of its processes and kill it.
 *
 * How each process is recognised (Ray 2.58, observed):
 * - JobHead: since ~2.45 dashboard modules run as subprocesses of the dashboard, each
 *   titled `ray-dashboard-<Module>-<incarnation>`; the dashboard restarts a dead one as
 *   incarnation N+1.
 * - Dashboard: `python .../ray/dashboard/dashboard.py` (the parent of the module processes).
 * - Head DashboardAgent: titled `ray::DashboardAgent` (a child of the raylet, which
 *   fate-shares with it).
 * - Raylet: the `raylet` binary.
 */
import { pollUntil } from '../probe/deadline.ts';
import { listHeadProcesses, signalProcess, type HeadIdentity, type HeadProcess } from './process-table.ts';

export type RayProcessRole = 'jobHead' | 'dashboard' | 'agent' | 'raylet' | 'gcs';

const matchers: Record<RayProcessRole, (p: HeadProcess) => boolean> = {
  jobHead: (p) => p.cmdline.startsWith('ray-dashboard-JobHead-'),
  dashboard: (p) => /\bray\/dashboard\/dashboard\.py\b/.test(p.cmdline),
  agent: (p) => p.cmdline.startsWith('ray::DashboardAgent'),
  raylet: (p) => p.name === 'raylet',
  gcs: (p) => p.name === 'gcs_server',
};

export async function findRayProcess(head: HeadIdentity, role: RayProcessRole): Promise<HeadProcess | undefined> {
  return (await listHeadProcesses(head)).find(matchers[role]);
}

/** Kills the process with SIGKILL (a crash, not a shutdown) and returns its pid. */
export async function killRayProcess(head: HeadIdentity, role: RayProcessRole): Promise<number> {
  const target = await findRayProcess(head, role);
  if (!target) throw new Error(`no ${role} process found for head ${head.marker}`);
  signalProcess(target.pid, 'SIGKILL');
  return target.pid;
}

export type RealHeadFaults = {
  /** Kills the JobHead subprocess and resolves once it is gone (the dashboard restarts it within ~1 s). */
  killJobHead(): Promise<number>;
  /** Kills the JobHead subprocess; resolves when the dashboard has started a new one. */
  restartJobHead(): Promise<{ killedPid: number; newPid: number }>;
  /** Kills the head node's DashboardAgent (the raylet fate-shares with it). */
  killAgent(): Promise<number>;
  killRaylet(): Promise<number>;
  /**
   * Kills the dashboard process and resolves once it and its module subprocesses are gone: until they have exited
   * the dashboard's port may still accept a connection that is then reset (ECONNRESET, seen in CI under load), which
   * is the dashboard dying, not dead. Under `ray start --block` the whole head then exits.
   */
  stopDashboard(): Promise<number>;
};

export function realHeadFaults(head: HeadIdentity): RealHeadFaults {
  return {
    async killJobHead() {
      const pid = await killRayProcess(head, 'jobHead');
      await pollUntil(async () => ((await listHeadProcesses(head)).some((p) => p.pid === pid) ? undefined : true), {
        what: `JobHead ${pid} to exit`,
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      return pid;
    },
    async restartJobHead() {
      const killedPid = await killRayProcess(head, 'jobHead');
      const replacement = await pollUntil(
        async () => {
          const p = await findRayProcess(head, 'jobHead');
          return p && p.pid !== killedPid ? p : undefined;
        },
        { what: 'a new JobHead incarnation', timeoutMs: 30_000, intervalMs: 100 },
      );
      return { killedPid, newPid: replacement.pid };
    },
    killAgent: () => killRayProcess(head, 'agent'),
    killRaylet: () => killRayProcess(head, 'raylet'),
    async stopDashboard() {
      const pid = await killRayProcess(head, 'dashboard');
      await pollUntil(async () => ((await listHeadProcesses(head)).some((p) => p.pid === pid || p.ppid === pid || p.cmdline.startsWith('ray-dashboard-')) ? undefined : true), {
        what: `the dashboard ${pid} and its module processes to exit`,
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      return pid;
    },
  };
}
