/**
 * Finds every live process that belongs to one test head.
 *
 * A process belongs to the head if any of these holds:
 * - it is in the session of the `ray start` process (spawned detached, so it leads its own
 *   session; GCS, raylet, dashboard, module subprocesses, agents and workers stay in it);
 * - its environment carries the head's `RAYJOB_TEST_HEAD=<id>` marker (job entrypoints run
 *   in a new session of their own, but inherit the environment);
 * - an ancestor belongs to the head.
 * The environment alone is not enough: processes that retitle themselves
 * (`ray::DashboardAgent`, `ray-dashboard-JobHead-0`) overwrite it (observed).
 * `ray stop` cannot be used: it kills every Ray process on the machine, including other
 * tests' heads.
 */
import { readdir, readFile } from 'node:fs/promises';

export const HEAD_MARKER_ENV = 'RAYJOB_TEST_HEAD';

export type HeadIdentity = { marker: string; sessionId: number };

export type HeadProcess = { pid: number; ppid: number; name: string; cmdline: string; rssKb: number };

type ProcEntry = HeadProcess & { sessionId: number; hasMarker: boolean };

async function readProc(pid: number, needle: string): Promise<ProcEntry | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    // Fields after the parenthesised command name: state ppid pgrp session ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined; // a zombie holds nothing and cannot be killed
    const status = await readFile(`/proc/${pid}/status`, 'latin1');
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    return {
      pid,
      ppid: Number(fields[1]),
      sessionId: Number(fields[3]),
      name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '',
      cmdline: (await readFile(`/proc/${pid}/cmdline`, 'latin1')).split('\0').join(' ').trim(),
      rssKb: Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      hasMarker: environ.split('\0').includes(needle),
    };
  } catch {
    return undefined; // exited while we looked
  }
}

export async function listHeadProcesses(head: HeadIdentity): Promise<HeadProcess[]> {
  const needle = `${HEAD_MARKER_ENV}=${head.marker}`;
  const entries = (
    await Promise.all((await readdir('/proc')).filter((e) => /^\d+$/.test(e)).map((e) => readProc(Number(e), needle)))
  ).filter((e): e is ProcEntry => e !== undefined && e.pid !== process.pid);
  const members = new Set(entries.filter((e) => e.sessionId === head.sessionId || e.hasMarker).map((e) => e.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of entries) {
      if (!members.has(e.pid) && members.has(e.ppid)) {
        members.add(e.pid);
        grew = true;
      }
    }
  }
  return entries.filter((e) => members.has(e.pid)).map(({ pid, ppid, name, cmdline, rssKb }) => ({ pid, ppid, name, cmdline, rssKb }));
}

/** Sends a signal, ignoring processes that are already gone. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
