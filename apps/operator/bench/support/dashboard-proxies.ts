// Bench-only: counts the operator's Ray dashboard requests without a hook inside the operator. The operator
// is given this `lookup` instead of the sandbox's: a cluster name resolves (through the sandbox's cluster DNS)
// to a head pod IP, and the answer is replaced by a loopback address where a counting proxy listens on the
// dashboard port and forwards to that pod IP. One proxy per pod IP; requests are attributed to the IP.
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { startCountingProxy, type CountingProxy } from './counting-proxy.ts';

export interface DashboardProxies {
  lookup: LookupFunction;
  /** Proxies by the pod IP they forward to. */
  readonly byTarget: Map<string, CountingProxy>;
  /** Every recorded request across proxies. */
  total(): number;
  stop(): Promise<void>;
}

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createDashboardProxies(inner: LookupFunction, dashboardPort = 8265): DashboardProxies {
  const byTarget = new Map<string, CountingProxy>();
  const starting = new Map<string, Promise<CountingProxy>>();
  let next = 1;
  // 127.254.x.y: outside the sandbox's loopback pod ranges (127.<k>.1.0/24 with small k) and its netns 10.244/16.
  const proxyFor = (ip: string): Promise<CountingProxy> => {
    let p = starting.get(ip);
    if (!p) {
      const n = next++;
      p = startCountingProxy({ target: { host: ip, port: dashboardPort }, listen: { host: `127.254.${n >> 8}.${n & 255}`, port: dashboardPort } });
      void p.then((proxy) => byTarget.set(ip, proxy));
      starting.set(ip, p);
    }
    return p;
  };
  const lookup = ((hostname: string, options: LookupOptions, callback: Callback) => {
    (inner as (h: string, o: LookupOptions, cb: Callback) => void)(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const first = Array.isArray(address) ? address[0]?.address : address;
      if (!first || first.startsWith('127.0.0.') || !/^\d+\.\d+\.\d+\.\d+$/.test(first)) return callback(null, address, family);
      proxyFor(first).then(
        (proxy) => (Array.isArray(address) ? callback(null, [{ address: proxy.host, family: 4 }]) : callback(null, proxy.host, 4)),
        (e: NodeJS.ErrnoException) => callback(e, address, family),
      );
    });
  }) as LookupFunction;
  return {
    lookup,
    byTarget,
    total: () => [...byTarget.values()].reduce((n, p) => n + p.requests.length, 0),
    async stop() {
      await Promise.all([...starting.values()].map(async (p) => (await p.catch(() => undefined))?.stop()));
    },
  };
}
