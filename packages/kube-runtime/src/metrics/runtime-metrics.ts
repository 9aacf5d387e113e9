// controller-runtime's and client-go's metrics on a prom-client registry, under their names and labels, so
// dashboards and alerts written for KubeRay's operator read ours: controller_runtime_reconcile_*,
// controller_runtime_active_workers / _max_concurrent_reconciles, workqueue_*, leader_election_master_status
// and client-go's rest_client_requests_total, rest_client_request_duration_seconds and
// rest_client_rate_limiter_duration_seconds; with `processMetrics`, prom-client's default process_* and nodejs_*
// metrics too (controller-runtime's registry carries the process and Go collectors: memory, CPU, file descriptors).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RestObserver } from '../client/rest-client.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { ControllerMetrics } from '../controller/controller-metrics.ts';
import type { QueueMetrics } from '../workqueue/queue-metrics.ts';

// controller-runtime's reconcile_time buckets, and workqueue's ExponentialBuckets(10e-9, 10, 12).
const reconcileBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60];
const queueBuckets = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

export interface RuntimeMetrics {
  registry: Registry;
  controller(name: string, maxConcurrent: number): ControllerMetrics;
  /** `inFlightSince` feeds the unfinished-work and longest-running gauges at scrape time. */
  queue(name: string, inFlightSince: () => number[]): QueueMetrics;
  leaderElection(name: string): (leading: boolean) => void;
  /** Give it to the REST client (KubeClientOptions.observer). */
  rest: RestObserver;
}

// client-go's buckets for the request and rate-limiter latencies.
const restBuckets = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

export interface RuntimeMetricsOptions {
  registry?: Registry;
  clock?: Clock;
  /** prom-client's default metrics (process_resident_memory_bytes, nodejs_heap_size_used_bytes, ...): once per process. */
  processMetrics?: boolean;
}

export function createRuntimeMetrics(options: RuntimeMetricsOptions = {}): RuntimeMetrics {
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    controller: controllerMetricsOn(registers),
    queue: queueMetricsOn(registers, options.clock ?? systemClock),
    leaderElection: leaderElectionMetricOn(registers),
    rest: restObserverOn(registers),
  };
}

/** controller-runtime's controller_runtime_* family; each controller's series start at zero. */
function controllerMetricsOn(registers: Registry[]): RuntimeMetrics['controller'] {
  const reconcileTotal = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'], registers });
  const reconcileErrors = new Counter({ name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller', labelNames: ['controller'], registers });
  const terminalErrors = new Counter({ name: 'controller_runtime_terminal_reconcile_errors_total', help: 'Total number of terminal reconciliation errors per controller', labelNames: ['controller'], registers });
  const reconcileTime = new Histogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], buckets: reconcileBuckets, registers });
  const maxConcurrent = new Gauge({ name: 'controller_runtime_max_concurrent_reconciles', help: 'Maximum number of concurrent reconciles per controller', labelNames: ['controller'], registers });
  const activeWorkers = new Gauge({ name: 'controller_runtime_active_workers', help: 'Number of currently used workers per controller', labelNames: ['controller'], registers });
  return (name, max) => {
    maxConcurrent.set({ controller: name }, max);
    activeWorkers.set({ controller: name }, 0);
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) reconcileTotal.inc({ controller: name, result }, 0);
    reconcileErrors.inc({ controller: name }, 0);
    terminalErrors.inc({ controller: name }, 0);
    return {
      reconciled: (outcome) => {
        reconcileTotal.inc({ controller: name, result: outcome });
        if (outcome === 'error') reconcileErrors.inc({ controller: name });
      },
      reconcileTime: (seconds) => reconcileTime.observe({ controller: name }, seconds),
      activeWorkers: (delta) => activeWorkers.inc({ controller: name }, delta),
      terminalError: () => terminalErrors.inc({ controller: name }),
    };
  };
}

/** workqueue's workqueue_* family; the two unfinished-work gauges read the queues' in-flight starts at scrape time. */
function queueMetricsOn(registers: Registry[], clock: Clock): RuntimeMetrics['queue'] {
  const queueLabels = ['controller', 'name'];
  const depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: queueLabels, registers });
  const adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: queueLabels, registers });
  const queueLatency = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: queueLabels, buckets: queueBuckets, registers });
  const workDuration = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes.', labelNames: queueLabels, buckets: queueBuckets, registers });
  const retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: queueLabels, registers });
  const queues = new Map<string, () => number[]>();
  const unfinished = (pick: (starts: number[], now: number) => number) =>
    function (this: Gauge) {
      const now = clock.now();
      for (const [name, inFlight] of queues) this.set({ controller: name, name }, pick(inFlight(), now));
    };
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help: 'How many seconds of work has been done that is in progress and hasn\'t been observed by work_duration. Large values indicate stuck threads.',
    labelNames: queueLabels, registers,
    collect: unfinished((starts, now) => starts.reduce((sum, s) => sum + (now - s) / 1000, 0)),
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames: queueLabels, registers,
    collect: unfinished((starts, now) => starts.reduce((max, s) => Math.max(max, (now - s) / 1000), 0)),
  });
  return (name, inFlightSince) => {
    queues.set(name, inFlightSince);
    const labels = { controller: name, name };
    depth.set(labels, 0);
    adds.inc(labels, 0);
    retries.inc(labels, 0);
    return {
      depth: (n) => depth.set(labels, n),
      adds: () => adds.inc(labels),
      retries: () => retries.inc(labels),
      queueDuration: (s) => queueLatency.observe(labels, s),
      workDuration: (s) => workDuration.observe(labels, s),
    };
  };
}

function leaderElectionMetricOn(registers: Registry[]): RuntimeMetrics['leaderElection'] {
  const leader = new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease.', labelNames: ['name'], registers });
  return (name) => {
    leader.set({ name }, 0);
    return (leading) => leader.set({ name }, leading ? 1 : 0);
  };
}

/** client-go's rest_client_* family. */
function restObserverOn(registers: Registry[]): RestObserver {
  const rest = new Counter({ name: 'rest_client_requests_total', help: 'Number of HTTP requests, partitioned by status code, method, and host.', labelNames: ['code', 'method', 'host'], registers });
  const restLatency = new Histogram({ name: 'rest_client_request_duration_seconds', help: 'Request latency in seconds. Broken down by verb, and host.', labelNames: ['verb', 'host'], buckets: restBuckets, registers });
  const restThrottled = new Histogram({ name: 'rest_client_rate_limiter_duration_seconds', help: 'Client side rate limiter latency in seconds. Broken down by verb, and host.', labelNames: ['verb', 'host'], buckets: restBuckets, registers });
  return {
    response: (method, status, host) => rest.inc({ code: status === 0 ? '<error>' : String(status), method, host }),
    latency: (verb, host, seconds) => restLatency.observe({ verb, host }, seconds),
    throttled: (verb, host, seconds) => restThrottled.observe({ verb, host }, seconds),
  };
}
