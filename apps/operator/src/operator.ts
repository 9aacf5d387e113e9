import { existsSync, readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { createLogger, createManager, createRuntimeMetrics, kubeClientOver, openConnection, type ConnectionSource, type KubeClient, type Logger, type ManagerExit } from '@rayjob/kube-runtime';
import type { OperatorConfig } from './config/config.ts';
import { controllers as registered } from './controllers/index.ts';
import type { ControllerRegistration, StartedController } from './controllers/types.ts';
import type { CacheTransforms } from './runtime/cached-fields.ts';
import { createSharedInformers } from './runtime/shared-informers.ts';
import { operatorUserAgent } from './user-agent.ts';

export interface OperatorOptions {
  config: OperatorConfig;
  /** Controllers to run (default: the registry in controllers/index.ts). */
  controllers?: ControllerRegistration[];
  /** What each cache keeps of an object (default: runtime/cached-fields.ts; tests record the controllers' reads). */
  cacheTransforms?: CacheTransforms;
  /** Name resolution for dashboards reached directly (a sandbox's cluster DNS when running outside it). */
  dashboardLookup?: LookupFunction;
  logger?: Logger;
  /** This replica's identity (default: hostname + pid). */
  identity?: string;
  /** Lease timings (default controller-runtime's: 15 s lease, 10 s renew deadline, 2 s retry). */
  leaderElection?: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number };
  /** Called when this replica loses the lease while running (main exits 1, as controller-runtime does). */
  onLeadershipLost?: () => void;
  /** Where the API server is (default: --kubeconfig, else KUBECONFIG / in-cluster / ~/.kube/config). */
  connection?: ConnectionSource;
}

/**
 * How long a stopping replica lets in-flight reconciles finish (controller-runtime's GracefulShutdownTimeout).
 * After it the reconciles' API calls are cancelled, the lease released, dashboards closed and queued events written;
 * a pod's terminationGracePeriodSeconds must exceed this plus that tail (the chart uses 60 s), or SIGKILL lands before
 * the lease is released and the next leader waits out the lease duration.
 */
export const DRAIN_BUDGET_SECONDS = 30;

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

/**
 * Starts one operator replica on kube-runtime's manager: it owns the shared informers, the Lease election, the
 * /metrics and /healthz /readyz servers and the shutdown; every registered controller adds its work queue to it.
 * Resolves once the servers are bound and the informers started.
 */
export async function startOperator(options: OperatorOptions): Promise<RunningOperator> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const connection = await openConnection(options.connection ?? (config.kubeconfig ? { kubeconfigPath: config.kubeconfig } : { fromDefault: true }));
  const metrics = createRuntimeMetrics({ processMetrics: true });
  // --qps/--burst on every call (client-go's token bucket); the Lease gets a bucket of its own over the same
  // connection, so a burst of reconciles never delays a renewal into a lost lease.
  const limits = { userAgent: operatorUserAgent, qps: config.qps, burst: config.burst, observer: metrics.rest };
  const client = kubeClientOver(connection, limits);
  const identity = options.identity ?? `${hostname()}_${process.pid}`;
  // controller-runtime's endpoints: /metrics on --metrics-addr, /healthz and /readyz on --health-probe-bind-address
  // (ready once every informer has listed, a follower too: it must be able to take over warm).
  const manager = createManager({
    client,
    logger,
    metrics,
    metricsBindAddress: config.metricsAddr,
    healthProbeBindAddress: config.probeAddr,
    gracefulShutdownTimeoutMs: DRAIN_BUDGET_SECONDS * 1000,
    ...(config.enableLeaderElection && {
      leaderElection: { id: config.leaderElectionId, namespace: leaseNamespace(config.leaderElectionNamespace), identity, client: kubeClientOver(connection, limits), ...options.leaderElection },
    }),
  });
  const informers = createSharedInformers(manager, config.watchNamespaces, options.cacheTransforms);
  // Through the API server's service proxy the dashboard is reached as the API server is: its CA, the same client
  // certificate or token (asked per client, so a token the kubelet rotated is used), the same audit identity.
  const dashboardRoute = {
    useKubernetesProxy: config.useKubernetesProxy,
    ...(config.useKubernetesProxy && { apiServer: { url: client.server, tls: client.tls, authHeaders: () => client.authHeaders() } }),
    ...(options.dashboardLookup && { lookup: options.dashboardLookup }),
    fence: manager.workSignal,
  };
  const started: Record<string, StartedController> = {};
  for (const registration of options.controllers ?? registered) {
    // Controllers write through the manager's work client: fenced by the lease (nothing is written after it is lost).
    const controller = registration.setup({ config, client: manager.workClient, manager, informers, logger, dashboardRoute, identity });
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
