// The live processes a test process started, directly or through a shell, read from /proc (Linux). A test file
// that leaves one behind (an emulated job's shell loop, a pod's process) keeps burning CPU for the rest of the run
// and, with `isolate: false`, nothing else would ever stop it.
import { readdirSync, readFileSync } from 'node:fs';

export type ProcessInfo = { pid: number; ppid: number; state: string; command: string };

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces or parentheses: fields follow the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, ppid] = stat.slice(close + 2).split(' ');
    // cmdline reads empty while a process is between fork and exec (and for kernel threads): name it by its comm
    // (the name in parentheses) then, so a report never shows a blank command.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    const command = cmdline === '' ? `[${stat.slice(stat.indexOf('(') + 1, close)}]` : cmdline;
    return { pid, ppid: Number(ppid), state: state ?? '?', command };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** Every live (not zombie) descendant of `root`, by walking the parent links of the whole process table. */
export function liveDescendants(root: number = process.pid): ProcessInfo[] {
  const table = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => readProcess(Number(d))).filter((p) => p !== undefined);
  const children = new Map<number, ProcessInfo[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: ProcessInfo[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (child.state !== 'Z') found.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return found;
}
