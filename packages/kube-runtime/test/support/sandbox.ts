// The sandbox API server (real REST + watch on 127.0.0.1, in a child process) behind a fault proxy, and
// kube-runtime clients: one through the proxy with explicit {server, token} options, one straight to the
// server from its kubeconfig (for setting up objects while faults are on).
import { fork, type ChildProcess } from 'node:child_process';
import { createKubeClient, resources, type KubeClient } from '../../src/index.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

export interface ApiServerOptions {
  historySize?: number;
  bookmarkIntervalMs?: number;
  /** CRD YAML file paths to install. */
  crds?: string[];
}

export interface ApiServerControl {
  url: string;
  kubeconfigPath: string;
  watchCount(): Promise<number>;
  /** End every open watch with a 410 ERROR event. */
  expireWatches(): Promise<void>;
  /** Forget watch history, so a resume gets 410 Gone. */
  compactHistory(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestCluster {
  server: ApiServerControl;
  proxy: FaultProxy;
  /** Through the proxy. */
  client: KubeClient;
  /** Straight to the API server. */
  direct: KubeClient;
  stop(): Promise<void>;
}

export async function forkApiServer(options: ApiServerOptions = {}): Promise<ApiServerControl> {
  const child: ChildProcess = fork(new URL('./api-server-process.ts', import.meta.url), [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (value: unknown) => void>();
  let seq = 0;
  const ready = await new Promise<{ url: string; kubeconfigPath: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('sandbox API server did not start within 20 s')), 20_000);
    child.once('exit', (code) => reject(new Error(`sandbox API server exited with ${code}`)));
    child.on('message', (m: { ready?: { url: string; kubeconfigPath: string }; id?: number; value?: unknown; error?: string }) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve(m.ready);
      } else if (m.id !== undefined) {
        pending.get(m.id)?.(m.error !== undefined ? Promise.reject(new Error(m.error)) : m.value);
        pending.delete(m.id);
      }
    });
  });
  const call = <T>(op: string): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = ++seq;
      pending.set(id, resolve as (value: unknown) => void);
      child.send({ id, op });
    });
  return {
    ...ready,
    watchCount: () => call<number>('watchCount'),
    expireWatches: () => call<void>('expireWatches'),
    compactHistory: () => call<void>('compactHistory'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

export async function startTestCluster(options: ApiServerOptions = {}): Promise<TestCluster> {
  const server = await forkApiServer({ bookmarkIntervalMs: 100, ...options });
  const cluster = await attachTestCluster(server);
  return { ...cluster, stop: async () => { await cluster.stop(); await server.stop(); } };
}

const cleaned = [resources.configmaps, resources.secrets, resources.leases];

/**
 * A fresh proxy and clients over a running server, with the test kinds (ConfigMaps, Secrets, Leases) in
 * `default` deleted first: one forked server per test file, a clean slate per test. stop() keeps the server.
 */
export async function attachTestCluster(server: ApiServerControl): Promise<TestCluster> {
  const proxy = await startFaultProxy(server.url);
  const client = await createKubeClient({ server: proxy.url, token: 'sandbox' }, { requestTimeoutMs: 5000 });
  const direct = await createKubeClient({ kubeconfigPath: server.kubeconfigPath });
  for (const type of cleaned) {
    const listed = await direct.list(type, { namespace: 'default' });
    if (!listed.ok) throw new Error(listed.error.message);
    await Promise.all(listed.value.items.map((o) => direct.delete(type, { namespace: 'default', name: o.metadata.name! }, { gracePeriodSeconds: 0 })));
  }
  // Watches of the previous test must be gone, so watch counts start from zero.
  for (let i = 0; i < 200 && (await server.watchCount()) > 0; i++) await new Promise((r) => setTimeout(r, 10));
  return {
    server,
    proxy,
    client,
    direct,
    stop: async () => {
      await client.close();
      await direct.close();
      await proxy.stop();
    },
  };
}

export const configMap = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, labels },
  data,
});
