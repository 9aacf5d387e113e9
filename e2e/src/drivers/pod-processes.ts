// A pod's processes on the sandbox's node, found from the host without `kubectl exec` (whose PID namespace
// would show only one container's): a pod's own processes are the ones in its network namespace, i.e. those
// whose /proc/<pid>/net/fib_trie lists the pod's IP as a local address. Used for real-Ray faults.
import { readdirSync, readFileSync } from 'node:fs';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended meanwhile, or is not ours to read
  }
};

/**
 * Ray's head processes by command line, as `pkill -f` would match them. Anchored at the start on purpose: the
 * raylet's own command line carries the agent's whole command (`--dashboard_agent_command=... ray/dashboard/agent.py
 * ...`), so an unanchored `dashboard/agent` also matches — and SIGKILLs — the raylet; then `ray start --block`
 * sees its raylet die, stops every Ray process and exits, and the head container restarts: a head loss, not the
 * agent's death (observed with Ray 2.58; the agent alone leaves the head up with the node DEAD).
 */
export const rayProcessPatterns = {
  /** The head's DashboardAgent: titled `ray::DashboardAgent` once it set its title, `python -u .../ray/dashboard/agent.py ...` before. */
  dashboardAgent: /^(ray::DashboardAgent\b|\S*python[\d.]*( -\S+)* \S*ray\/dashboard\/agent\.py\b)/,
  /** The dashboard's JobHead subprocess module, titled `ray-dashboard-JobHead-<incarnation>`. */
  jobHead: /^ray-dashboard-JobHead-/,
} as const;

/** Whether a process's network namespace has `ip` as a local (/32 host LOCAL) address. */
export function inNetworkOf(pid: number, ip: string): boolean {
  const trie = read(`/proc/${pid}/net/fib_trie`);
  if (trie === undefined) return false;
  const lines = trie.split('\n');
  return lines.some((line, i) => line.trim() === `|-- ${ip}` && (lines[i + 1] ?? '').includes('/32 host LOCAL'));
}

/** Pids whose command line matches `pattern` (as `pkill -f` matches) and that live in the pod with `podIP`. */
export function podProcesses(podIP: string, pattern: RegExp): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = read(`/proc/${entry}/cmdline`);
    if (cmdline === undefined || !pattern.test(cmdline.replaceAll('\0', ' ').trim())) continue;
    if (inNetworkOf(Number(entry), podIP)) found.push(Number(entry));
  }
  return found;
}

/** Signals a pod's matching processes; an error names the pod and pattern when none was found. */
export function killPodProcesses(podIP: string, pattern: RegExp, signal: NodeJS.Signals): number[] {
  const pids = podProcesses(podIP, pattern);
  if (pids.length === 0) throw new Error(`no process matching ${pattern} in the pod at ${podIP}`);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return pids;
}
