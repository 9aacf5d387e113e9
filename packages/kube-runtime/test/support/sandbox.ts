// A sandbox API server (real REST + watch on 127.0.0.1) behind a fault proxy, and a kube-runtime client
// pointed at the proxy through explicit {server, token} options.
import { startApiServer, type ApiServer, type ApiServerOptions } from '@rayjob/sandbox';
import { createKubeClient, type KubeClient } from '../../src/index.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';

export interface TestCluster {
  server: ApiServer;
  proxy: FaultProxy;
  /** Through the proxy. */
  client: KubeClient;
  /** Straight to the API server, for setting up objects while faults are on. */
  direct: KubeClient;
  stop(): Promise<void>;
}

export async function startTestCluster(options: ApiServerOptions = {}): Promise<TestCluster> {
  const server = await startApiServer({ bookmarkIntervalMs: 100, ...options });
  const proxy = await startFaultProxy(server.url);
  const client = await createKubeClient({ server: proxy.url, token: 'sandbox' }, { requestTimeoutMs: 5000 });
  const direct = await createKubeClient({ kubeconfigPath: server.kubeconfigPath });
  return {
    server,
    proxy,
    client,
    direct,
    stop: async () => {
      await client.close();
      await direct.close();
      await proxy.stop();
      await server.stop();
    },
  };
}

export const configMap = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, labels },
  data,
});
