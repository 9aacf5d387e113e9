import { existsSync, readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { createKubeClient, createLogger, createManager, type KubeClient, type Logger, type ManagerExit } from '@rayjob/kube-runtime';
import type { OperatorConfig } from './config/config.ts';
import { controllers as registered } from './controllers/index.ts';
import type { ControllerRegistration, StartedController } from './controllers/types.ts';
import { createSharedInformers } from './runtime/shared-informers.ts';
import { operatorUserAgent } from './user-agent.ts';

export interface OperatorOptions {
  config: OperatorConfig;
  /** Controllers to run (default: the registry in controllers/index.ts). */
  controllers?: ControllerRegistration[];
  /** Name resolution for dashboards reached directly (a sandbox's cluster DNS when running outside it). */
  dashboardLookup?: LookupFunction;
  logger?: Logger;
  /** This replica's identity (default: hostname + pid). */
  identity?: string;
  /** Lease timings (default controller-runtime's: 15 s lease, 10 s renew deadline, 2 s retry). */
  leaderElection?: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number };
  /** Called when this replica loses the lease while running (main exits 1, as controller-runtime does). */
  onLeadershipLost?: () => void;
}

export interface RunningOperator {
  client: KubeClient;
  controllers: Record<string, StartedController>;
  identity: string;
  /** Bound addresses of the metrics and probe servers (host:port), when serving. */
  addresses: { metrics?: string; probes?: string };
  /** true while this replica reconciles (always, without leader election). */
  isLeader(): boolean;
  /** Graceful shutdown: stop taking keys, finish in-flight reconciles, release the lease, close watches. */
  stop(): Promise<void>;
  /** Stops at once without releasing the lease (what a killed replica leaves behind), for tests. */
  kill(): Promise<void>;
}

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/** In a pod, the service proxy route authenticates with the pod's service account token. */
function serviceAccountAuthorization(): string | undefined {
  return existsSync(SERVICE_ACCOUNT_TOKEN) ? `Bearer ${readFileSync(SERVICE_ACCOUNT_TOKEN, 'utf8').trim()}` : undefined;
}

/**
 * Starts one operator replica on kube-runtime's manager: it owns the shared informers, the Lease election, the
 * /metrics and /healthz /readyz servers and the shutdown; every registered controller adds its work queue to it.
 * Resolves once the servers are bound and the informers started.
 */
export async function startOperator(options: OperatorOptions): Promise<RunningOperator> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const client = await createKubeClient(config.kubeconfig ? { kubeconfigPath: config.kubeconfig } : { fromDefault: true }, { userAgent: operatorUserAgent });
  const identity = options.identity ?? `${hostname()}_${process.pid}`;
  // controller-runtime's endpoints: /metrics on --metrics-addr, /healthz and /readyz on --health-probe-bind-address
  // (ready once every informer has listed, a follower too: it must be able to take over warm).
  const manager = createManager({
    client,
    logger,
    metricsBindAddress: config.metricsAddr,
    healthProbeBindAddress: config.probeAddr,
    ...(config.enableLeaderElection && {
      leaderElection: { id: config.leaderElectionId, namespace: leaseNamespace(config.leaderElectionNamespace), identity, ...options.leaderElection },
    }),
  });
  const informers = createSharedInformers(manager, config.watchNamespaces);
  const dashboardRoute = {
    useKubernetesProxy: config.useKubernetesProxy,
    ...(config.useKubernetesProxy && { apiServer: { url: client.server, authorization: serviceAccountAuthorization() } }),
    ...(options.dashboardLookup && { lookup: options.dashboardLookup }),
  };
  const started: Record<string, StartedController> = {};
  for (const registration of options.controllers ?? registered) {
    const controller = registration.setup({ config, client, manager, informers, logger, dashboardRoute, identity });
    started[registration.name] = controller;
    // After the workers stopped and the lease was released: close dashboards and log tails, write queued events.
    manager.addShutdownHook(() => controller.close());
  }
  const exit: Promise<ManagerExit> = manager.start();
  try {
    await manager.started();
  } catch (error) {
    await client.close();
    throw error;
  }
  void exit.then(
    (how) => {
      if (how !== 'leader-election-lost') return;
      logger.error({ identity }, 'Leader election lost');
      options.onLeadershipLost?.();
    },
    (error: unknown) => logger.error({ err: error }, 'operator manager failed'),
  );
  logger.info({ identity, controllers: Object.keys(started), watchNamespaces: config.watchNamespaces, managedBy: config.managedBy, leaderElection: config.enableLeaderElection }, 'Operator started');
  for (const gate of config.gatesWithoutEffect) logger.info({ gate }, 'Feature gate accepted; it has no effect on this operator');
  for (const notice of config.notices) logger.info({ notice }, 'Configuration notice');

  let closed: Promise<void> | undefined;
  const shutdown = (how: () => Promise<void>): Promise<void> => {
    closed ??= how().then(() => client.close());
    return closed;
  };
  return {
    client,
    controllers: started,
    identity,
    addresses: manager.addresses(),
    isLeader: () => manager.isLeader(),
    stop: () => shutdown(() => manager.stop()),
    kill: () => shutdown(() => manager.kill()),
  };
}

/** KubeRay: the Lease lives in --leader-election-namespace, else the operator pod's namespace. */
function leaseNamespace(flag: string): string {
  if (flag) return flag;
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  const file = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : 'default';
}
