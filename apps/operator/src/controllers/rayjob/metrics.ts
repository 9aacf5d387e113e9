import { executionDurationSample, parseKubeTime, secondsBetween, type RayJob, type RayJobResourceStatus } from '@rayjob/core';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DashboardRequestObserver } from './dashboards.ts';

/**
 * KubeRay's RayJob metrics (`--enable-metrics`): kuberay_job_execution_duration_seconds, set when a reconcile takes
 * an attempt to Complete, Failed or Retrying and dropped when the RayJob is gone; kuberay_job_info and
 * kuberay_job_deployment_status, computed from the cache at scrape time.
 */
export interface RayJobMetrics {
  /** After a successful status write: records the execution duration on a transition that ends an attempt. */
  observeTransition(rayJob: RayJob, original: RayJobResourceStatus, next: RayJobResourceStatus, now: Date): void;
  /** The RayJob is gone: its execution-duration series go too (KubeRay deletes them on NotFound). */
  forget(namespace: string, name: string): void;
  /** Counts a dashboard request's outcome (kuberay_job_dashboard_requests_total). */
  observeDashboardRequest: DashboardRequestObserver;
}

/**
 * The metric names this module registers, for the chart's dashboard and alerts test (every name a panel or an
 * alert uses must be one of these, or one of the runtime's).
 */
export const RAYJOB_METRIC_NAMES = [
  'kuberay_job_execution_duration_seconds',
  'kuberay_job_info',
  'kuberay_job_deployment_status',
  'kuberay_job_failed_total',
  'kuberay_job_deployment_status_duration_seconds',
  'kuberay_job_submission_to_running_seconds',
  'kuberay_job_dashboard_requests_total',
  'kuberay_job_cluster_provisioning_failed',
] as const;

/** RayClusterProvisioned reasons that mean "not yet", not "cannot". */
const PROVISIONING_REASONS = new Set(['RayClusterPodsProvisioning', 'RayClusterCreating', 'RayClusterNotCreated', 'AllPodRunningAndReadyFirstTime', 'RayClusterReady']);

const DURATION_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400];

/** The series a status transition feeds, and what it needs to remember between transitions. */
interface TransitionSeries {
  duration: Gauge;
  failed: Counter;
  timeIn: Histogram;
  toRunning: Histogram;
  /** The execution-duration label sets per RayJob (namespace/name), removed when it is gone. */
  series: Map<string, Array<Record<string, string>>>;
  /** Since when each RayJob (namespace/name) has been in its deployment status, as this operator saw it enter. */
  entered: Map<string, { uid: string; status: string; since: Date }>;
}

export function createRayJobMetrics(registry: Registry, rayJobs: () => RayJob[]): RayJobMetrics {
  const registers = [registry];
  // Registered in RAYJOB_METRIC_NAMES' order, which is the order a scrape lists them in.
  const duration = new Gauge({
    name: 'kuberay_job_execution_duration_seconds',
    help: 'Duration of the RayJob CR\'s JobDeploymentStatus transition from Initializing to either the Retrying state or a terminal state, such as Complete or Failed.',
    labelNames: ['name', 'namespace', 'uid', 'job_deployment_status', 'retry_count'],
    registers,
  });
  registerScrapedStatusGauges(registers, rayJobs);
  const t: TransitionSeries = { duration, ...transitionHistograms(registers), series: new Map(), entered: new Map() };
  const requests = new Counter({
    name: 'kuberay_job_dashboard_requests_total',
    help: 'Ray dashboard requests of the RayJob controller, by operation and outcome (ok, not-found, unavailable, rejected, bad-response, already-exists).',
    labelNames: ['operation', 'outcome'],
    registers,
  });
  registerProvisioningFailedGauge(registers, rayJobs);
  return {
    observeDashboardRequest(operation, outcome) {
      requests.inc({ operation, outcome });
    },
    observeTransition: (rayJob, original, next, now) => observeTransition(t, rayJob, original, next, now),
    forget(namespace, name) {
      const key = `${namespace}/${name}`;
      t.entered.delete(key);
      for (const labels of t.series.get(key) ?? []) duration.remove(labels);
      t.series.delete(key);
    },
  };
}

/** kuberay_job_info and kuberay_job_deployment_status, computed from the cache at scrape time. */
function registerScrapedStatusGauges(registers: Registry[], rayJobs: () => RayJob[]): void {
  new Gauge({
    name: 'kuberay_job_info',
    help: 'Metadata information about RayJob custom resources',
    labelNames: ['name', 'namespace', 'uid'],
    registers,
    collect() {
      this.reset();
      for (const j of rayJobs()) this.set({ name: j.metadata.name ?? '', namespace: j.metadata.namespace ?? '', uid: j.metadata.uid ?? '' }, 1);
    },
  });
  new Gauge({
    name: 'kuberay_job_deployment_status',
    help: 'The RayJob\'s current deployment status',
    labelNames: ['name', 'namespace', 'uid', 'deployment_status'],
    registers,
    collect() {
      this.reset();
      for (const j of rayJobs()) {
        this.set({ name: j.metadata.name ?? '', namespace: j.metadata.namespace ?? '', uid: j.metadata.uid ?? '', deployment_status: j.status?.jobDeploymentStatus ?? '' }, 1);
      }
    },
  });
}

// Ours (kuberay#3180, #3201, #2681), with KubeRay's label names: counters and histograms by namespace, never by
// RayJob name (bounded series, and rate() survives a RayJob's deletion).
function transitionHistograms(registers: Registry[]): Pick<TransitionSeries, 'failed' | 'timeIn' | 'toRunning'> {
  return {
    failed: new Counter({
      name: 'kuberay_job_failed_total',
      help: 'Attempts of RayJobs that failed (jobDeploymentStatus Failed or Retrying), by KubeRay\'s failure reason.',
      labelNames: ['namespace', 'reason'],
      registers,
    }),
    timeIn: new Histogram({
      name: 'kuberay_job_deployment_status_duration_seconds',
      help: 'Seconds a RayJob spent in a jobDeploymentStatus, observed when it leaves it (only statuses this operator saw entered).',
      labelNames: ['namespace', 'deployment_status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    toRunning: new Histogram({
      name: 'kuberay_job_submission_to_running_seconds',
      help: 'Seconds from the Ray job\'s submission (Ray\'s start time) to the first status write that records it RUNNING.',
      labelNames: ['namespace', 'submission_mode'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
  };
}

function registerProvisioningFailedGauge(registers: Registry[], rayJobs: () => RayJob[]): void {
  new Gauge({
    name: 'kuberay_job_cluster_provisioning_failed',
    help: 'RayJobs whose RayCluster cannot create its pods (RayClusterProvisioned False with a failure reason).',
    labelNames: ['name', 'namespace', 'uid', 'reason'],
    registers,
    collect() {
      this.reset();
      for (const j of rayJobs()) {
        const c = j.status?.conditions?.find((x) => x.type === 'RayClusterProvisioned');
        if (c?.status !== 'False' || PROVISIONING_REASONS.has(c.reason)) continue;
        this.set({ name: j.metadata.name ?? '', namespace: j.metadata.namespace ?? '', uid: j.metadata.uid ?? '', reason: c.reason }, 1);
      }
    },
  });
}

function observeTransition(t: TransitionSeries, rayJob: RayJob, original: RayJobResourceStatus, next: RayJobResourceStatus, now: Date): void {
  const namespace = rayJob.metadata.namespace ?? '';
  const jobKey = `${namespace}/${rayJob.metadata.name ?? ''}`;
  const uid = rayJob.metadata.uid ?? '';
  const from = original.jobDeploymentStatus ?? '';
  const to = next.jobDeploymentStatus ?? '';
  if (from !== to) {
    const seen = t.entered.get(jobKey);
    if (seen && seen.uid === uid && seen.status === from) t.timeIn.observe({ namespace, deployment_status: from }, Math.max(0, secondsBetween(seen.since, now)));
    t.entered.set(jobKey, { uid, status: to, since: now });
    const failing = (s: string) => s === 'Failed' || s === 'Retrying' || s === 'ValidationFailed';
    if (failing(to) && !failing(from)) t.failed.inc({ namespace, reason: next.reason ?? '' });
  }
  const submitted = parseKubeTime(next.rayJobInfo?.startTime);
  if (next.jobStatus === 'RUNNING' && original.jobStatus !== 'RUNNING' && submitted && now >= submitted) {
    t.toRunning.observe({ namespace, submission_mode: rayJob.spec.submissionMode ?? 'K8sJobMode' }, secondsBetween(submitted, now));
  }
  const sample = executionDurationSample(original, next, now);
  if (!sample) return;
  const labels = {
    name: rayJob.metadata.name ?? '',
    namespace: rayJob.metadata.namespace ?? '',
    uid: rayJob.metadata.uid ?? '',
    job_deployment_status: sample.jobDeploymentStatus,
    retry_count: String(sample.retryCount),
  };
  t.duration.set(labels, sample.seconds);
  const key = `${labels.namespace}/${labels.name}`;
  t.series.set(key, [...(t.series.get(key) ?? []), labels]);
}
