import { existsSync, readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import {
  createKubeClient,
  createLeaderElector,
  createLogger,
  createRuntimeMetrics,
  startProbeServer,
  type Check,
  type ElectionEnd,
  type KubeClient,
  type LeaderElector,
  type Logger,
  type ProbeServer,
} from '@rayjob/kube-runtime';
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
  const metrics = createRuntimeMetrics();
  const started: Record<string, StartedController> = {};
  for (const registration of options.controllers ?? registered) {
    started[registration.name] = registration.setup({ config, client, informers, logger, dashboardRoute, identity, metrics });
  }
  // controller-runtime's endpoints: /metrics on --metrics-addr, /healthz and /readyz on --health-probe-bind-address.
  const servers: ProbeServer[] = [];
  const addresses: { metrics?: string; probes?: string } = {};
  if (config.metricsAddr !== '0') {
    const server = await startProbeServer(config.metricsAddr, { metrics: metrics.registry });
    servers.push(server);
    addresses.metrics = server.address;
  }
  if (config.probeAddr !== '0') {
    const healthz = new Map<string, Check>([['ping', () => true]]);
    // Ready once every informer has listed (a follower too: it must be able to take over warm).
    const readyz = new Map<string, Check>([['ping', () => true], ['informers-synced', () => informers.allSynced()]]);
    const server = await startProbeServer(config.probeAddr, { healthz, readyz });
    servers.push(server);
    addresses.probes = server.address;
  }
  const stopping = new AbortController();
  const killed = new AbortController();
  const informersDone = informers.run(AbortSignal.any([stopping.signal, killed.signal]));
  let running: Array<Promise<void>> = [];
  const startControllers = (signal: AbortSignal): void => {
    running = Object.values(started).map((c) => c.run(signal));
  };
  let elector: LeaderElector | undefined;
  let election: Promise<ElectionEnd> | undefined;
  if (config.enableLeaderElection) {
    elector = createLeaderElector({
      client,
      namespace: leaseNamespace(config.leaderElectionNamespace),
      name: config.leaderElectionId,
      identity,
      logger,
      ...options.leaderElection,
      onLeaderChange: metrics.leaderElection(config.leaderElectionId),
      // A killed replica leaves its lease behind: the others must wait it out (read when the election ends).
      get releaseOnCancel() {
        return !killed.signal.aborted;
      },
      onStartedLeading: (leading) => startControllers(AbortSignal.any([leading, killed.signal])),
      onStoppedLeading: async () => {
        await Promise.allSettled(running);
      },
    });
    election = elector.run(AbortSignal.any([stopping.signal, killed.signal]));
    void election.then((end) => {
      if (end === 'lost') {
        logger.error({ identity }, 'Leader election lost');
        options.onLeadershipLost?.();
      }
    });
  } else {
    startControllers(AbortSignal.any([stopping.signal, killed.signal]));
  }
  logger.info({ identity, controllers: Object.keys(started), watchNamespaces: config.watchNamespaces, managedBy: config.managedBy, leaderElection: config.enableLeaderElection }, 'Operator started');
  for (const gate of config.gatesWithoutEffect) logger.info({ gate }, 'Feature gate accepted; it has no effect on this operator');

  let stopped: Promise<void> | undefined;
  const shutdown = (how: AbortController): Promise<void> => {
    stopped ??= (async () => {
      how.abort();
      await election;
      await Promise.allSettled(running);
      await Promise.allSettled(Object.values(started).map((c) => c.close()));
      stopping.abort();
      await informersDone;
      await Promise.allSettled(servers.map((server) => server.close()));
      await client.close();
    })();
    return stopped;
  };
  return {
    client,
    controllers: started,
    identity,
    addresses,
    isLeader: () => (elector ? elector.isLeader() : !stopping.signal.aborted),
    stop: () => shutdown(stopping),
    kill: () => shutdown(killed),
  };
}

/** KubeRay: the Lease lives in --leader-election-namespace, else the operator pod's namespace. */
function leaseNamespace(flag: string): string {
  if (flag) return flag;
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  const file = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : 'default';
}
