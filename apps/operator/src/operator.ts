import { existsSync, readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { createKubeClient, createLogger, type KubeClient, type Logger } from '@rayjob/kube-runtime';
import type { OperatorConfig } from './config/config.ts';
import { controllers as registered } from './controllers/index.ts';
import type { ControllerRegistration, StartedController } from './controllers/types.ts';
import { createSharedInformers } from './runtime/shared-informers.ts';

export interface OperatorOptions {
  config: OperatorConfig;
  /** Controllers to run (default: the registry in controllers/index.ts). */
  controllers?: ControllerRegistration[];
  /** Name resolution for dashboards reached directly (a sandbox's cluster DNS when running outside it). */
  dashboardLookup?: LookupFunction;
  logger?: Logger;
  /** This replica's identity (default: hostname + pid). */
  identity?: string;
}

export interface RunningOperator {
  client: KubeClient;
  controllers: Record<string, StartedController>;
  identity: string;
  /** Graceful shutdown: stop taking keys, finish in-flight reconciles, close watches and connections. */
  stop(): Promise<void>;
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** In a pod, the service proxy route authenticates with the pod's service account token. */
function serviceAccountAuthorization(): string | undefined {
  return existsSync(SERVICE_ACCOUNT_TOKEN) ? `Bearer ${readFileSync(SERVICE_ACCOUNT_TOKEN, 'utf8').trim()}` : undefined;
}

/** Starts the informers and controllers of one operator replica. */
export async function startOperator(options: OperatorOptions): Promise<RunningOperator> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const client = await createKubeClient(config.kubeconfig ? { kubeconfigPath: config.kubeconfig } : { fromDefault: true }, { userAgent: 'rayjob-operator' });
  const identity = options.identity ?? `${hostname()}_${process.pid}`;
  const informers = createSharedInformers(client, config.watchNamespaces, logger);
  const dashboardRoute = {
    useKubernetesProxy: config.useKubernetesProxy,
    ...(config.useKubernetesProxy && { apiServer: { url: client.server, authorization: serviceAccountAuthorization() } }),
    ...(options.dashboardLookup && { lookup: options.dashboardLookup }),
  };
  const started: Record<string, StartedController> = {};
  for (const registration of options.controllers ?? registered) {
    started[registration.name] = registration.setup({ config, client, informers, logger, dashboardRoute, identity });
  }
  const stopping = new AbortController();
  const informersDone = informers.run(stopping.signal);
  const running = Object.values(started).map((c) => c.run(stopping.signal));
  logger.info({ identity, controllers: Object.keys(started), watchNamespaces: config.watchNamespaces, managedBy: config.managedBy }, 'Operator started');
  for (const gate of config.gatesWithoutEffect) logger.info({ gate }, 'Feature gate accepted; it has no effect on this operator');

  let stopped: Promise<void> | undefined;
  return {
    client,
    controllers: started,
    identity,
    stop: () => {
      stopped ??= (async () => {
        stopping.abort();
        await Promise.allSettled(running);
        await Promise.allSettled(Object.values(started).map((c) => c.close()));
        await informersDone;
        await client.close();
      })();
      return stopped;
    },
  };
}
