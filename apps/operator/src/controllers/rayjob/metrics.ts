import { executionDurationSample, type RayJob, type RayJobResourceStatus } from '@rayjob/core';
import { Gauge, type Registry } from 'prom-client';

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
}

export function createRayJobMetrics(registry: Registry, rayJobs: () => RayJob[]): RayJobMetrics {
  const registers = [registry];
  const duration = new Gauge({
    name: 'kuberay_job_execution_duration_seconds',
    help: 'Duration of the RayJob CR\'s JobDeploymentStatus transition from Initializing to either the Retrying state or a terminal state, such as Complete or Failed.',
    labelNames: ['name', 'namespace', 'uid', 'job_deployment_status', 'retry_count'],
    registers,
  });
  const series = new Map<string, Array<Record<string, string>>>();
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
  return {
    observeTransition(rayJob, original, next, now) {
      const sample = executionDurationSample(original, next, now);
      if (!sample) return;
      const labels = {
        name: rayJob.metadata.name ?? '',
        namespace: rayJob.metadata.namespace ?? '',
        uid: rayJob.metadata.uid ?? '',
        job_deployment_status: sample.jobDeploymentStatus,
        retry_count: String(sample.retryCount),
      };
      duration.set(labels, sample.seconds);
      const key = `${labels.namespace}/${labels.name}`;
      series.set(key, [...(series.get(key) ?? []), labels]);
    },
    forget(namespace, name) {
      const key = `${namespace}/${name}`;
      for (const labels of series.get(key) ?? []) duration.remove(labels);
      series.delete(key);
    },
  };
}
