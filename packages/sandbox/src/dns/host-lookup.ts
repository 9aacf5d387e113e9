// How a process on the host (an operator under test, the test itself) resolves cluster names
// without touching /etc/hosts or the host's resolv.conf: give its HTTP client this lookup
// function (node:net `lookup` option, undici `connect: { lookup }`). Cluster names are answered by
// the sandbox DNS server over UDP; anything else goes to the system resolver.
import { createSocket } from 'node:dgram';
import { lookup as systemLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { buildQuery, parseAnswers } from './dns-wire.ts';

export interface DnsServerAddress { host: string; port: number; clusterDomain: string }

/** Queries the sandbox DNS server for A records; [] when the name does not exist. */
export function queryClusterDns(server: DnsServerAddress, name: string, timeoutMs = 2000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    const id = Math.floor(Math.random() * 0xffff);
    const timer = setTimeout(() => { socket.close(); reject(new Error(`cluster DNS: no answer for ${name} within ${timeoutMs} ms`)); }, timeoutMs);
    socket.on('message', (message) => {
      if (message.readUInt16BE(0) !== id) return;
      clearTimeout(timer);
      socket.close();
      resolve(parseAnswers(message).addresses);
    });
    socket.send(buildQuery(id, name), server.port, server.host);
  });
}

/** Completes short forms an operator may use on the host (`svc.ns.svc`) to the cluster FQDN. */
export function clusterFqdn(name: string, clusterDomain: string): string | undefined {
  const bare = name.replace(/\.$/, '').toLowerCase();
  if (bare.endsWith(`.${clusterDomain}`)) return bare;
  if (bare.endsWith('.svc') || /\.pod$/.test(bare)) return `${bare}.${clusterDomain}`;
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createClusterLookup(server: DnsServerAddress): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    const fqdn = clusterFqdn(hostname, server.clusterDomain);
    if (fqdn === undefined) {
      systemLookup(hostname, options, callback as never);
      return;
    }
    queryClusterDns(server, fqdn).then((addresses) => {
      if (addresses.length === 0) {
        const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
        callback(error, '', 4);
        return;
      }
      if (options.all === true) callback(null, addresses.map((address) => ({ address, family: 4 })));
      else callback(null, addresses[0] ?? '', 4);
    }, (error: Error) => callback(Object.assign(error, { code: 'ETIMEOUT' }), '', 4));
  };
}
