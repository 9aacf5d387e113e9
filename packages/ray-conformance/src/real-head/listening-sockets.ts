/**
 * Which TCP addresses a set of processes listens on, read from /proc (no `ss` needed):
 * /proc/net/tcp{,6} gives LISTEN sockets by inode, /proc/<pid>/fd links name the inodes.
 * Used to prove a test head binds loopback only.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';

export type ListeningSocket = { pid: number; address: string; port: number };

function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    // IPv4, little-endian bytes
    return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  }
  if (hex === '00000000000000000000000000000000') return '::';
  if (hex === '00000000000000000000000001000000') return '::1';
  if (hex.startsWith('0000000000000000FFFF0000')) return `::ffff:${decodeAddress(hex.slice(24))}`;
  return `ipv6:${hex}`;
}

async function listeningInodes(): Promise<Map<string, { address: string; port: number }>> {
  const byInode = new Map<string, { address: string; port: number }>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [local, state, inode] = [cols[1], cols[3], cols[9]];
      if (!local || state !== '0A' || !inode) continue; // 0A = LISTEN
      const [addrHex = '', portHex = '0'] = local.split(':');
      byInode.set(inode, { address: decodeAddress(addrHex), port: parseInt(portHex, 16) });
    }
  }
  return byInode;
}

export async function listeningSockets(pids: number[]): Promise<ListeningSocket[]> {
  const byInode = await listeningInodes();
  const found: ListeningSocket[] = [];
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const socket = inode ? byInode.get(inode) : undefined;
      if (socket) found.push({ pid, ...socket });
    }
  }
  return found;
}
