// Pod networking. Two modes:
//
// - 'netns' (default when we may create network namespaces, i.e. as root): every pod gets its own
//   network namespace with an `eth0` veth plugged into a bridge owned by this sandbox, and an
//   address from 10.244.<k>.0/24 — a range that exists only on that bridge and inside namespaces
//   we create, so no traffic leaves the machine. The bridge's .1 address lives on the host, so the
//   host (an operator running outside the sandbox, tests) reaches pod IPs directly, and pods reach
//   host services listening on all interfaces through the gateway. Programs may bind 0.0.0.0 and
//   still get a per-pod port space, as in Kubernetes.
// - 'loopback' (fallback): every pod gets a distinct 127.<k>.x.y address, handed to its programs
//   as status.podIP; there is no port isolation (a program binding 0.0.0.0 takes the port for the
//   whole machine), so images must bind their pod IP.
//
// Several sandboxes may run at once (parallel test files): each claims a free <k> (network-claims.ts),
// reaping what a dead sandbox process left behind.
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { claimSubnet, reapDeadClaims, releaseSubnet } from './network-claims.ts';

const run = promisify(execFile);

export type NetworkMode = 'netns' | 'loopback';

export interface PodAddress {
  ip: string;
  /** Network namespace name (netns mode), for `ip netns exec`. */
  netns: string | undefined;
}

export interface PodNetwork {
  readonly mode: NetworkMode;
  /** The host-side gateway address; the cluster DNS listens here. */
  readonly gatewayIP: string;
  readonly cidr: string;
  attach(podUid: string): Promise<PodAddress>;
  /** Kills every process left in the pod's namespace, then removes it. */
  detach(podUid: string): Promise<void>;
  stop(): Promise<void>;
}

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

/**
 * Runs several `ip` commands in one process (`ip -batch -`), optionally inside a namespace: every `ip` is a
 * process start (its libraries loaded, and a fork of this large process), the bulk of what a pod's network
 * costs. `force`: go on after a failing line (teardown, where each step may already be done).
 */
function ipBatch(lines: string[], netns?: string, force = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = [...(netns === undefined ? [] : ['-n', netns]), ...(force ? ['-force'] : []), '-batch', '-'];
    const child = execFile('ip', args, (error) => (error === null ? resolve() : reject(error)));
    child.stdin?.end(`${lines.join('\n')}\n`);
  });
}

async function ipOutput(...args: string[]): Promise<string> {
  return (await run('ip', args)).stdout;
}

function allocator(): { take(): number; release(octet: number): void } {
  const used = new Set<number>();
  let next = 2;
  return {
    take() {
      for (let tries = 0; tries < 253; tries += 1) {
        const candidate = next;
        next = next >= 254 ? 2 : next + 1;
        if (!used.has(candidate)) { used.add(candidate); return candidate; }
      }
      throw new Error('pod network: all 253 pod addresses of this sandbox are in use');
    },
    release: (octet) => { used.delete(octet); },
  };
}

/** Claims a free 10.244.<k>.0/24 and creates its bridge, up with the gateway address; returns k. */
async function claimBridge(): Promise<number> {
  await reapDeadClaims();
  const start = Math.floor(Math.random() * 200);
  let k = -1;
  for (let i = 0; i < 250 && k < 0; i += 1) {
    const candidate = (start + i) % 250 + 1;
    if (!(await claimSubnet(candidate))) continue;
    // Something outside the sandbox may use the range: then leave it alone.
    const addresses = await ipOutput('-4', '-o', 'addr');
    if (addresses.includes(` 10.244.${candidate}.`)) { releaseSubnet(candidate); continue; }
    try {
      await ip('link', 'add', `rjbr${candidate}`, 'type', 'bridge');
      k = candidate;
    } catch {
      releaseSubnet(candidate);
    }
  }
  if (k < 0) throw new Error('pod network: no free 10.244.<k>.0/24 subnet for a sandbox bridge');
  try {
    await ip('addr', 'add', `10.244.${k}.1/24`, 'dev', `rjbr${k}`);
    await ip('link', 'set', `rjbr${k}`, 'up');
  } catch (error) {
    await ip('link', 'del', `rjbr${k}`).catch(() => {});
    releaseSubnet(k);
    throw error;
  }
  return k;
}

/** One pod's namespace, the host end of its veth, and its address's last octet. */
interface NetnsPod {
  octet: number;
  netns: string;
  hostVeth: string;
}

/** Creates the pod's namespace with `eth0` plugged into the bridge, its address and the default route. */
async function plugPod(k: number, pod: NetnsPod): Promise<void> {
  const { netns, hostVeth, octet } = pod;
  // `netns add` in a batch: ip returns to the host's namespace after it, so the next lines run on the host.
  await ipBatch([
    `netns add ${netns}`,
    `link add ${hostVeth} type veth peer name eth0 netns ${netns}`,
    `link set ${hostVeth} master rjbr${k} up`,
  ]);
  await ipBatch([
    `addr add 10.244.${k}.${octet}/24 dev eth0`,
    'link set eth0 up',
    'link set lo up',
    `route add default via 10.244.${k}.1`,
  ], netns);
}

/** Kills every process left in the pod's namespace, then removes the namespace and the veth. */
async function unplugPod(pod: NetnsPod): Promise<void> {
  for (const pid of netnsPids(pod.netns)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  await ipBatch([`link del ${pod.hostVeth}`, `netns del ${pod.netns}`], undefined, true).catch(() => {});
}

/**
 * The processes in a named network namespace, found as `ip netns pids` finds them (a process whose
 * /proc/<pid>/ns/net is the namespace's file), without starting a process for it.
 */
export function netnsPids(netns: string): number[] {
  let target: { dev: number; ino: number };
  try {
    target = statSync(`/run/netns/${netns}`);
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ns = statSync(`/proc/${entry}/ns/net`);
      if (ns.dev === target.dev && ns.ino === target.ino) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

export async function startNetnsNetwork(): Promise<PodNetwork> {
  const k = await claimBridge();
  const bridge = `rjbr${k}`;
  const octets = allocator();
  const pods = new Map<string, NetnsPod>();

  async function detach(podUid: string): Promise<void> {
    const pod = pods.get(podUid);
    if (pod === undefined) return;
    pods.delete(podUid);
    await unplugPod(pod);
    octets.release(pod.octet);
  }

  return {
    mode: 'netns',
    gatewayIP: `10.244.${k}.1`,
    cidr: `10.244.${k}.0/24`,
    async attach(podUid) {
      const existing = pods.get(podUid);
      if (existing !== undefined) return { ip: `10.244.${k}.${existing.octet}`, netns: existing.netns };
      const octet = octets.take();
      const pod: NetnsPod = { octet, netns: `rayjob-${k}-${octet}`, hostVeth: `rjh${k}x${octet}` };
      pods.set(podUid, pod);
      try {
        await plugPod(k, pod);
      } catch (error) {
        await detach(podUid);
        throw new Error(`pod network: could not set up namespace ${pod.netns}: ${(error as Error).message}`);
      }
      return { ip: `10.244.${k}.${octet}`, netns: pod.netns };
    },
    detach,
    async stop() {
      for (const uid of [...pods.keys()]) await detach(uid);
      await ip('link', 'del', bridge).catch(() => {});
      releaseSubnet(k);
    },
  };
}

export function startLoopbackNetwork(): PodNetwork {
  const k = 100 + Math.floor(Math.random() * 100);
  const octets = allocator();
  const pods = new Map<string, number>();
  return {
    mode: 'loopback',
    gatewayIP: `127.${k}.0.1`,
    cidr: `127.${k}.1.0/24`,
    async attach(podUid) {
      const octet = pods.get(podUid) ?? octets.take();
      pods.set(podUid, octet);
      return { ip: `127.${k}.1.${octet}`, netns: undefined };
    },
    async detach(podUid) {
      const octet = pods.get(podUid);
      if (octet !== undefined) octets.release(octet);
      pods.delete(podUid);
    },
    async stop() { pods.clear(); },
  };
}

/** Network namespaces work when we can create one (root or CAP_NET_ADMIN with `ip` installed). */
export async function netnsSupported(): Promise<boolean> {
  const probe = `rayjob-probe-${process.pid}`;
  try {
    await ip('netns', 'add', probe);
    await ip('netns', 'del', probe);
    return true;
  } catch {
    return false;
  }
}
