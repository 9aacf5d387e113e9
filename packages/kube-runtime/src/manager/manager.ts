// The manager wires the runtime together, as controller-runtime's: shared informers (one per resource type,
// namespace and selector, running on every replica so a new leader starts warm), controllers started only
// while this replica holds the Lease, /healthz /readyz /metrics, event recorders and status writers, and a
// graceful stop on SIGTERM: stop taking work, let in-flight reconciles finish (bounded), release the lease,
// run the shutdown hooks, then stop informers and servers. kill() is a crash for tests: the same stop, but the
// lease is left behind, so another replica leads only once it has expired.
// Work is fenced by the lease: controllers, event recorders and status writers use `workClient`, whose calls are
// cancelled (and later ones refused without reaching the server) the moment the lease is lost, or when the drain
// outlives its grace period, before the lease is released. A replica that is no longer leader writes nothing more.
import { systemClock, type Clock } from '../clock.ts';
import type { ResourceType } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';
import type { IndexFunc } from '../cache/indexed-cache.ts';
import { createController, type Controller, type ControllerOptions } from '../controller/controller.ts';
import { createEventRecorder, type EventRecorder, type EventRecorderOptions } from '../events/event-recorder.ts';
import type { BackoffOptions } from '../informer/backoff.ts';
import { createInformer, type Informer } from '../informer/informer.ts';
import { createLeaderElector } from '../leader/leader-election.ts';
import { silentLogger, type Logger } from '../log.ts';
import { createRuntimeMetrics, type RuntimeMetrics } from '../metrics/runtime-metrics.ts';
import { createStatusWriter, type StatusWriter, type StatusWriterOptions } from '../status/status-writer.ts';
import { startProbeServer, type Check, type ProbeServer } from './probe-server.ts';
import { onShutdownSignals } from './signals.ts';

export interface LeaderElectionConfig {
  /** Lease name (KubeRay: `ray-operator-leader`). */
  id: string;
  namespace: string;
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  releaseOnCancel?: boolean;
  /** The Lease's own client (default: the manager's): with its own rate limit, reconcile bursts never delay a renewal. */
  client?: KubeClient;
}

export interface ManagerOptions {
  client: KubeClient;
  logger?: Logger;
  clock?: Clock;
  metrics?: RuntimeMetrics;
  /** e.g. ":8080"; undefined or "0" serves no metrics. */
  metricsBindAddress?: string;
  /** e.g. ":8082"; undefined serves no probes. */
  healthProbeBindAddress?: string;
  /** Off when undefined: this replica always reconciles. */
  leaderElection?: LeaderElectionConfig;
  /** How long in-flight reconciles may take after a stop. Default 30 s (controller-runtime's). */
  gracefulShutdownTimeoutMs?: number;
  /** Stop on SIGTERM/SIGINT (a second signal exits at once). */
  handleSignals?: boolean;
  /** List/watch failure backoff for every informer (client-go's 800 ms .. 30 s by default). */
  informerBackoff?: BackoffOptions;
}

export interface InformerScope<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  indexes?: Record<string, IndexFunc<T>>;
  /** The cache transform (see InformerOptions.transform); like indexes, the first caller's is the informer's. */
  transform?: (obj: T) => T;
}

export type ManagerExit = 'stopped' | 'leader-election-lost';

export interface Manager {
  readonly client: KubeClient;
  /** `client`, fenced by the lease (see above): give it to whatever writes on behalf of the leader. */
  readonly workClient: KubeClient;
  /** Aborts when workClient is fenced off: for other side effects of the leader's work (a Ray job submission). */
  readonly workSignal: AbortSignal;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  /** One informer per (type, namespace, selectors), shared by every controller that asks. */
  informer<T extends KubeObject>(type: ResourceType, scope?: InformerScope<T>): Informer<T>;
  addController(options: Omit<ControllerOptions, 'clock' | 'metrics' | 'queueMetrics' | 'logger'>): Controller;
  /** An event recorder over the lease-fenced work client, flushed when the manager stops. */
  eventRecorder(component: string, options?: Pick<EventRecorderOptions, 'api' | 'instance'>): EventRecorder;
  /** kube-runtime's status writer over the lease-fenced work client (`changed`: when a status is worth a write). */
  statusWriter(type: ResourceType, options?: Pick<StatusWriterOptions, 'fieldManager' | 'changed'>): StatusWriter;
  addHealthzCheck(name: string, check: Check): void;
  addReadyzCheck(name: string, check: Check): void;
  isLeader(): boolean;
  /** Addresses actually bound (after start), for tests and logs. */
  addresses(): { metrics?: string; probes?: string };
  /** Called on the way out, after the controllers stopped and the lease was released, before informers stop. */
  addShutdownHook(hook: () => Promise<void>): void;
  /** Runs until `signal` aborts (or stop(), kill(), a shutdown signal, or leadership is lost). */
  start(signal?: AbortSignal): Promise<ManagerExit>;
  /** Resolves once start() has bound its servers and started the informers; rejects if that failed. */
  started(): Promise<void>;
  /** Graceful stop: stop taking work, finish in-flight reconciles (bounded), release the lease; resolves when start() has returned. */
  stop(): Promise<void>;
  /** What a crashed replica leaves behind, for tests: stop at once without releasing the lease. */
  kill(): Promise<void>;
}

/** What one manager holds and how far it got; the functions below act on it. */
interface ManagerState {
  options: ManagerOptions;
  clock: Clock;
  log: Logger;
  metrics: RuntimeMetrics;
  graceMs: number;
  informers: Map<string, Informer<KubeObject>>;
  controllers: Controller[];
  recorders: EventRecorder[];
  healthz: Map<string, Check>;
  readyz: Map<string, Check>;
  bound: { metrics?: string; probes?: string };
  informerStop: AbortController;
  informerRuns: Array<Promise<void>>;
  hooks: Array<() => Promise<void>>;
  shutdown: AbortController;
  work: AbortController;
  workClient: KubeClient;
  killed: boolean;
  started: boolean;
  leading: boolean;
  run: Promise<ManagerExit> | undefined;
  markStarted: (error?: unknown) => void;
  startedOnce: Promise<void>;
}

export function createManager(options: ManagerOptions): Manager {
  const m = managerState(options);
  return {
    client: options.client,
    workClient: m.workClient,
    workSignal: m.work.signal,
    logger: m.log,
    metrics: m.metrics,
    informer: <T extends KubeObject>(type: ResourceType, scope?: InformerScope<T>) => sharedInformer(m, type, scope),
    addController: (o) => addController(m, o),
    eventRecorder: (component, recorderOptions) => {
      const recorder = createEventRecorder({ client: m.workClient, component, clock: m.clock, logger: m.log, ...recorderOptions });
      m.recorders.push(recorder);
      return recorder;
    },
    statusWriter: (type, writerOptions) => createStatusWriter({ ...writerOptions, client: m.workClient, type }),
    addHealthzCheck: (name, check) => void m.healthz.set(name, check),
    addReadyzCheck: (name, check) => void m.readyz.set(name, check),
    isLeader: () => m.leading,
    addresses: () => ({ ...m.bound }),
    addShutdownHook: (hook) => void m.hooks.push(hook),
    started: () => m.startedOnce,
    stop: async () => {
      m.shutdown.abort();
      await m.run?.catch(() => undefined);
    },
    kill: async () => {
      m.killed = true;
      m.work.abort(new Error('killed'));
      m.shutdown.abort();
      await m.run?.catch(() => undefined);
    },
    start: (signal) => {
      if (m.started) throw new Error('manager: start() called twice');
      m.started = true;
      m.run = runManager(m, signal);
      return m.run;
    },
  };
}

function managerState(options: ManagerOptions): ManagerState {
  const clock = options.clock ?? systemClock;
  const informers = new Map<string, Informer<KubeObject>>();
  const work = new AbortController();
  let markStarted!: (error?: unknown) => void;
  const startedOnce = new Promise<void>((resolve, reject) => (markStarted = (error) => (error === undefined ? resolve() : reject(error))));
  startedOnce.catch(() => undefined); // start() reports the same error to its caller
  return {
    options,
    clock,
    log: options.logger ?? silentLogger,
    metrics: options.metrics ?? createRuntimeMetrics({ clock }),
    graceMs: options.gracefulShutdownTimeoutMs ?? 30_000,
    informers,
    controllers: [],
    recorders: [],
    healthz: new Map<string, Check>([['ping', () => true]]),
    readyz: new Map<string, Check>([['ping', () => true], ['informers-synced', () => [...informers.values()].every((i) => i.hasSynced())]]),
    bound: {},
    informerStop: new AbortController(),
    informerRuns: [],
    hooks: [],
    shutdown: new AbortController(),
    work,
    workClient: options.client.withSignal(work.signal),
    killed: false,
    started: false,
    leading: options.leaderElection === undefined,
    run: undefined,
    markStarted,
    startedOnce,
  };
}

function sharedInformer<T extends KubeObject>(m: ManagerState, type: ResourceType, scope: InformerScope<T> = {}): Informer<T> {
  const key = [type.group, type.version, type.plural, scope.namespace ?? '', scope.labelSelector ?? '', scope.fieldSelector ?? ''].join('|');
  let informer = m.informers.get(key);
  if (!informer) {
    const { options } = m;
    informer = createInformer<T>({ client: options.client, type, clock: m.clock, logger: m.log, ...(options.informerBackoff && { backoff: options.informerBackoff }), ...scope }) as unknown as Informer<KubeObject>;
    m.informers.set(key, informer);
    if (m.started) runInformer(m, informer);
  }
  return informer as unknown as Informer<T>;
}

function addController(m: ManagerState, o: Parameters<Manager['addController']>[0]): Controller {
  if (m.started) throw new Error(`manager: add controller ${o.name} before start()`);
  const concurrency = Math.max(1, o.concurrency ?? 1);
  const holder: { controller?: Controller } = {};
  const queueMetrics = m.metrics.queue(o.name, () => holder.controller?.queue.inFlightSince() ?? []);
  holder.controller = createController({ ...o, clock: m.clock, logger: m.log, metrics: m.metrics.controller(o.name, concurrency), queueMetrics });
  m.controllers.push(holder.controller);
  return holder.controller;
}

function runInformer(m: ManagerState, informer: Informer<KubeObject>): void {
  m.informerRuns.push(informer.run(m.informerStop.signal));
}

/**
 * Runs every controller until `signal` aborts; resolves when they drained or the grace period ended. Never before
 * `signal` aborts, as controller-runtime's manager: one without controllers still serves its informers, metrics
 * and probes until it is stopped.
 */
function runControllers(m: ManagerState, signal: AbortSignal): Promise<void> {
  const aborted = new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  const runs = Promise.all([aborted, ...m.controllers.map((controller) => controller.start(signal))]).then(() => undefined);
  return new Promise<void>((resolve) => {
    void runs.then(resolve);
    signal.addEventListener('abort', () => {
      const cancel = m.clock.setTimer(() => {
        m.log.warn({ timeoutMs: m.graceMs }, 'graceful shutdown timed out with reconciles still running; cancelling their API calls');
        m.work.abort(new Error('graceful shutdown timed out'));
        resolve();
      }, m.graceMs);
      void runs.then(cancel);
    }, { once: true });
  });
}

async function runManager(m: ManagerState, signal: AbortSignal | undefined): Promise<ManagerExit> {
  const { options, log, shutdown } = m;
  if (signal?.aborted) shutdown.abort();
  else signal?.addEventListener('abort', () => shutdown.abort(), { once: true });
  const removeSignals = options.handleSignals ? onShutdownSignals(() => shutdown.abort(), log) : () => undefined;
  const servers: ProbeServer[] = [];
  try {
    await startServers(m, servers);
    for (const informer of m.informers.values()) runInformer(m, informer);
    m.markStarted();
    if (options.leaderElection) return await runElected(m, options.leaderElection);
    await runControllers(m, shutdown.signal);
    m.leading = false;
    return 'stopped';
  } catch (error) {
    m.markStarted(error);
    throw error;
  } finally {
    removeSignals();
    await Promise.allSettled(m.hooks.map((hook) => hook()));
    m.informerStop.abort();
    await Promise.all(m.informerRuns);
    await Promise.all(m.recorders.map((r) => r.flush()));
    await Promise.all(servers.map((s) => s.close()));
    log.info('manager stopped');
  }
}

/** The metrics and probe servers, as configured; each one started is pushed to `servers` (closed on the way out). */
async function startServers(m: ManagerState, servers: ProbeServer[]): Promise<void> {
  const { options, log } = m;
  if (options.metricsBindAddress !== undefined && options.metricsBindAddress !== '0') {
    const s = await startProbeServer(options.metricsBindAddress, { metrics: m.metrics.registry });
    servers.push(s);
    m.bound.metrics = s.address;
    log.info({ bindAddress: s.address }, 'Serving metrics server');
  }
  if (options.healthProbeBindAddress !== undefined && options.healthProbeBindAddress !== '0') {
    const s = await startProbeServer(options.healthProbeBindAddress, { healthz: m.healthz, readyz: m.readyz });
    servers.push(s);
    m.bound.probes = s.address;
    log.info({ bindAddress: s.address }, 'Starting health probe server');
  }
}

/** Campaigns for the lease and runs the controllers while leading; resolves once they drained. */
async function runElected(m: ManagerState, le: LeaderElectionConfig): Promise<ManagerExit> {
  const { log } = m;
  let runs: Promise<void> = Promise.resolve();
  const elector = createLeaderElector({
    client: le.client ?? m.options.client, namespace: le.namespace, name: le.id, clock: m.clock, logger: log,
    ...(le.identity !== undefined && { identity: le.identity }),
    ...(le.leaseDurationMs !== undefined && { leaseDurationMs: le.leaseDurationMs }),
    ...(le.renewDeadlineMs !== undefined && { renewDeadlineMs: le.renewDeadlineMs }),
    ...(le.retryPeriodMs !== undefined && { retryPeriodMs: le.retryPeriodMs }),
    // Read when the election ends: a killed replica leaves its lease for the others to wait out.
    get releaseOnCancel() {
      return !m.killed && le.releaseOnCancel !== false;
    },
    onLeaderChange: m.metrics.leaderElection(le.id),
    onLost: () => {
      log.error('leader election lost: cancelling in-flight API calls');
      m.work.abort(new Error('leader election lost'));
    },
    onStartedLeading: (leadership) => {
      m.leading = true;
      leadership.addEventListener('abort', () => (m.leading = false), { once: true });
      runs = runControllers(m, leadership);
    },
    onStoppedLeading: () => runs,
  });
  const exit: ManagerExit = (await elector.run(m.shutdown.signal)) === 'lost' ? 'leader-election-lost' : 'stopped';
  await runs;
  return exit;
}
