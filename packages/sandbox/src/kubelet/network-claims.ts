// Which sandbox owns which pod subnet. A sandbox claims 10.244.<k>.0/24 by creating
// /run/rayjob-sandbox/subnet-<k> exclusively, holding its pid and process start time. A claim whose
// owner is gone (a test process killed before it could stop its sandbox) is reaped by the next
// sandbox that wants it: its namespaces' processes are killed, the namespaces and the bridge
// removed. Only names with our prefixes (rjbr<k>, rayjob-<k>-<n>) are ever touched.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const claimsDir = '/run/rayjob-sandbox';

function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const ownerToken = (): string => `${process.pid} ${startTime(process.pid) ?? ''}`;

function ownerAlive(token: string): boolean {
  const [pid, started] = token.trim().split(' ');
  return pid !== undefined && startTime(Number(pid)) === started;
}

export async function reapSubnet(k: number): Promise<void> {
  const list = await run('ip', ['netns', 'list']).then((r) => r.stdout, () => '');
  for (const name of list.split('\n').map((line) => line.split(' ')[0] ?? '').filter((n) => n.startsWith(`rayjob-${k}-`))) {
    const pids = await run('ip', ['netns', 'pids', name]).then((r) => r.stdout, () => '');
    for (const pid of pids.split(/\s+/).filter((p) => p !== '')) {
      try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
    }
    await run('ip', ['netns', 'del', name]).catch(() => {});
  }
  await run('ip', ['link', 'del', `rjbr${k}`]).catch(() => {});
}

/** True when this process now owns subnet k (reaping a dead owner's leftovers first). */
export async function claimSubnet(k: number): Promise<boolean> {
  mkdirSync(claimsDir, { recursive: true });
  const file = join(claimsDir, `subnet-${k}`);
  try {
    writeFileSync(file, ownerToken(), { flag: 'wx' });
    return true;
  } catch {
    let token = '';
    try { token = readFileSync(file, 'utf8'); } catch { return false; }
    if (ownerAlive(token)) return false;
    await reapSubnet(k);
    rmSync(file, { force: true });
    try {
      writeFileSync(file, ownerToken(), { flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  }
}

export function releaseSubnet(k: number): void {
  rmSync(join(claimsDir, `subnet-${k}`), { force: true });
}

/** Reaps every subnet whose owning process is gone (so its pods' processes do not linger). */
export async function reapDeadClaims(): Promise<number[]> {
  let files: string[];
  try { files = readdirSync(claimsDir); } catch { return []; }
  const reaped: number[] = [];
  for (const file of files) {
    const match = /^subnet-(\d+)$/.exec(file);
    if (match === null) continue;
    let token = '';
    try { token = readFileSync(join(claimsDir, file), 'utf8'); } catch { continue; }
    if (ownerAlive(token)) continue;
    const k = Number(match[1]);
    await reapSubnet(k);
    rmSync(join(claimsDir, file), { force: true });
    reaped.push(k);
  }
  return reaped;
}

/** True while any sandbox on this machine (any process) holds a subnet claim. */
export function anyLiveClaim(): boolean {
  let files: string[];
  try { files = readdirSync(claimsDir); } catch { return false; }
  return files.some((file) => {
    if (!/^subnet-\d+$/.test(file)) return false;
    try { return ownerAlive(readFileSync(join(claimsDir, file), 'utf8')); } catch { return false; }
  });
}
