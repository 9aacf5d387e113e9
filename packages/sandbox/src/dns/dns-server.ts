// The cluster DNS: a small authoritative server for <clusterDomain> over UDP and TCP, fed by
// watching Services and Endpoints through the API. Names outside the cluster domain get NXDOMAIN
// (the sandbox is hermetic: no upstream forwarding).
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { createInformer, resources, type KubeClient } from '@rayjob/kube-runtime';
import type { Endpoints, Service } from '../kube-objects/types.ts';
import type { Resolution } from './cluster-records.ts';
import { resolveClusterName } from './cluster-records.ts';
import { buildError, buildResponse, parseQuery } from './dns-wire.ts';
import { nodeInformerBackoff, runInformers } from '../node-runtime/component.ts';

export interface ClusterDnsOptions {
  client: KubeClient;
  /** Address to listen on (the pod network's gateway, reachable from every pod and the host). */
  host: string;
  /** Port; 53 so that resolv.conf can point at it. 0 picks a free port (tests). */
  port?: number;
  clusterDomain?: string;
  /**
   * Services answered with fixed addresses instead of their Endpoints, keyed `<namespace>/<name>`: the `kubernetes`
   * Service's Endpoints name the API server's own address (loopback), which no pod reaches; pods reach it through
   * the node's API endpoint, as kube-proxy would route the Service's ClusterIP.
   */
  serviceAddresses?: Record<string, string[]>;
}

export interface ClusterDns {
  readonly host: string;
  readonly port: number;
  readonly clusterDomain: string;
  readonly synced: Promise<void>;
  /** In-process resolution (what the server would answer), e.g. for a host-side operator's lookup. */
  resolve(name: string): Resolution;
  stop(): Promise<void>;
}

export async function startClusterDns(options: ClusterDnsOptions): Promise<ClusterDns> {
  const clusterDomain = options.clusterDomain ?? 'cluster.local';
  const services = createInformer<Service>({ client: options.client, type: resources.services, backoff: nodeInformerBackoff });
  const endpoints = createInformer<Endpoints>({ client: options.client, type: resources.endpoints, backoff: nodeInformerBackoff });
  const view = {
    service: (namespace: string, name: string) => services.cache.getByName(namespace, name),
    endpoints: (namespace: string, name: string): Endpoints | undefined => {
      const fixed = options.serviceAddresses?.[`${namespace}/${name}`];
      if (fixed === undefined) return endpoints.cache.getByName(namespace, name);
      return { metadata: { name, namespace }, subsets: [{ addresses: fixed.map((ip) => ({ ip })) }] };
    },
    namespaceExists: (namespace: string) => services.cache.byNamespace(namespace).length > 0,
  };
  const resolve = (name: string): Resolution => resolveClusterName(view, name, clusterDomain);

  const answer = (message: Buffer): Buffer => {
    const parsed = parseQuery(message);
    if (!parsed.ok) return buildError(parsed.id ?? 0, 1);
    const resolution = resolve(parsed.question.name);
    switch (resolution.kind) {
      case 'found': return buildResponse(parsed.question, 0, resolution.addresses);
      case 'nodata': return buildResponse(parsed.question, 0, []);
      default: return buildResponse(parsed.question, 3, []);
    }
  };

  const udp = createSocket('udp4');
  udp.on('message', (message, remote) => { udp.send(answer(message), remote.port, remote.address); });
  await new Promise<void>((resolveBound, reject) => {
    udp.once('error', reject);
    udp.bind(options.port ?? 53, options.host, () => { udp.off('error', reject); resolveBound(); });
  });
  const port = udp.address().port;

  const sockets = new Set<Socket>();
  const tcp = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const reply = answer(buffered.subarray(2, 2 + length));
        buffered = buffered.subarray(2 + length);
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length, 0);
        socket.write(Buffer.concat([prefix, reply]));
      }
    });
  });
  await new Promise<void>((resolveListening, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, options.host, () => { tcp.off('error', reject); resolveListening(); });
  });
  void (tcp.address() as AddressInfo);
  const watching = runInformers([services, endpoints]);

  return {
    host: options.host,
    port,
    clusterDomain,
    synced: watching.synced,
    resolve,
    async stop() {
      await watching.stop();
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((done) => udp.close(() => done())),
        new Promise<void>((done) => tcp.close(() => done())),
      ]);
    },
  };
}
