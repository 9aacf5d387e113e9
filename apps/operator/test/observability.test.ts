// The chart's Grafana dashboard and PrometheusRule alerts (off by default): every panel's and alert's PromQL
// parses, and every metric it names is one the operator really serves on /metrics. The RayJob metrics they
// read count what they say.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import type { RayJob, RayJobResourceStatus } from '@rayjob/core';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createRayJobMetrics } from '../src/controllers/rayjob/metrics.ts';
import type { Json } from './support/api.ts';
import { startEnv, type Env } from './support/env.ts';
import { chartPath, extractHelm, runTool } from './support/helm.ts';

const scratch = mkdtempSync(join(tmpdir(), 'operator-observability-'));
let helm = '';
let env: Env | undefined;

beforeAll(async () => {
  helm = await extractHelm(scratch);
}, 60_000);
afterAll(async () => {
  await env?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const render = async (...set: string[]): Promise<Json[]> => {
  const r = await runTool(scratch, helm, ['template', 'rayjob', chartPath, '--namespace', 'rayjob-system', ...set.flatMap((s) => ['--set', s])]);
  if (r.code !== 0) throw new Error(r.stderr);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as Json).filter(Boolean);
};

/** Grafana's own variables are not PromQL: give them values, as Grafana does before sending a query. */
const asPromQL = (expr: string): string => expr.replaceAll('$__rate_interval', '5m').replaceAll('$namespace', '.*');

/** The metric names a PromQL expression selects; throws naming the expression when it does not parse. */
function metricNames(expr: string): string[] {
  const query = asPromQL(expr);
  const names: string[] = [];
  const errors: string[] = [];
  parser.parse(query).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(`at ${node.from}: ${query.slice(node.from, node.to + 10)}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') names.push(query.slice(node.from, node.to));
    },
  });
  if (errors.length) throw new Error(`PromQL does not parse: ${query} (${errors.join('; ')})`);
  return names;
}

/** Every PromQL expression of the rendered dashboard (panels, and the label_values() of its variables) and rules. */
async function shippedQueries(): Promise<Array<{ where: string; expr: string }>> {
  const objects = await render('grafanaDashboard.enabled=true', 'prometheusRule.enabled=true');
  const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-dashboard'));
  const rule = objects.find((o) => o.kind === 'PrometheusRule');
  expect(configMap?.metadata.labels.grafana_dashboard).toBe('1');
  expect(rule?.apiVersion).toBe('monitoring.coreos.com/v1');
  const dashboard = JSON.parse(configMap.data['rayjob-operator.json']) as Json;
  const queries: Array<{ where: string; expr: string }> = [];
  for (const panel of dashboard.panels) for (const t of panel.targets) queries.push({ where: `panel "${panel.title}" ${t.refId}`, expr: t.expr });
  for (const v of dashboard.templating.list) {
    const labelValues = /^label_values\((\w+),\s*\w+\)$/.exec(v.query?.query ?? '');
    if (labelValues?.[1]) queries.push({ where: `variable ${v.name}`, expr: labelValues[1] });
  }
  for (const group of rule.spec.groups) for (const r of group.rules) queries.push({ where: `alert ${r.alert}`, expr: r.expr });
  return queries;
}

describe('the chart\'s dashboard and alerts', { timeout: 120_000 }, () => {
  it('are off by default', async () => {
    const kinds = (await render()).map((o) => `${o.kind}/${o.metadata.name}`);
    expect(kinds.filter((k) => k.startsWith('PrometheusRule') || k.endsWith('-dashboard'))).toEqual([]);
  });

  it('every panel\'s and alert\'s PromQL parses and names only metrics the operator serves', async () => {
    const queries = await shippedQueries();
    expect(queries.length).toBeGreaterThan(10);
    env = await startEnv(['--enable-metrics', '--metrics-addr=127.0.0.1:0', '--health-probe-bind-address=0']);
    const text = await (await fetch(`http://${env.operator.addresses.metrics}/metrics`)).text();
    const served = new Set<string>();
    for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      const [, name = '', type] = m;
      served.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) served.add(`${name}${suffix}`);
    }
    const unknown = queries.flatMap(({ where, expr }) => metricNames(expr).filter((n) => !served.has(n)).map((n) => `${where}: ${n}`));
    expect(unknown).toEqual([]);
    // The rayjob metrics the dashboard is about are among them (not only the runtime's).
    const used = new Set(queries.flatMap(({ expr }) => metricNames(expr)));
    for (const name of ['kuberay_job_failed_total', 'kuberay_job_deployment_status_duration_seconds_bucket', 'kuberay_job_submission_to_running_seconds_bucket', 'kuberay_job_dashboard_requests_total', 'kuberay_job_cluster_provisioning_failed']) {
      expect(used).toContain(name);
    }
  });

  it('a query that does not parse, or names an unknown metric, is caught', () => {
    expect(() => metricNames('sum by (reason (kuberay_job_failed_total)')).toThrow(/does not parse/);
    expect(metricNames('rate(kuberay_job_failed_totl[5m])')).toEqual(['kuberay_job_failed_totl']);
  });
});

describe('the RayJob metrics the dashboard reads', () => {
  const rayJob = (status: RayJobResourceStatus = {}): RayJob => ({ metadata: { name: 'j', namespace: 'ns', uid: 'u1' }, spec: { submissionMode: 'K8sJobMode' }, status }) as RayJob;
  const t = (s: number) => new Date(Date.UTC(2026, 11, 2, 10, 0, s));
  const sample = async (registry: Registry, name: string, labels: Record<string, string | number>): Promise<number | undefined> => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
    return metric?.values.find((v) => Object.entries(labels).every(([k, val]) => (v.labels as Record<string, unknown>)[k] === val))?.value;
  };

  it('count failed attempts by reason, time in each deployment status, submission to RUNNING, dashboard outcomes, clusters that cannot provision', async () => {
    const registry = new Registry();
    const failing = rayJob({ jobDeploymentStatus: 'Initializing', conditions: [{ type: 'RayClusterProvisioned', status: 'False', reason: 'FailedCreateHeadPod', message: 'quota', lastTransitionTime: '2026-12-02T10:00:00Z' }] });
    const m = createRayJobMetrics(registry, () => [failing, rayJob({ jobDeploymentStatus: 'Initializing', conditions: [{ type: 'RayClusterProvisioned', status: 'False', reason: 'RayClusterPodsProvisioning', message: '', lastTransitionTime: '2026-12-02T10:00:00Z' }] })]);
    const j = rayJob();
    m.observeTransition(j, {}, { jobDeploymentStatus: 'Initializing', startTime: '2026-12-02T10:00:00Z' }, t(0));
    m.observeTransition(j, { jobDeploymentStatus: 'Initializing' }, { jobDeploymentStatus: 'Running' }, t(12));
    m.observeTransition(j, { jobDeploymentStatus: 'Running', jobStatus: 'PENDING' }, { jobDeploymentStatus: 'Running', jobStatus: 'RUNNING', rayJobInfo: { startTime: '2026-12-02T10:00:13Z' } }, t(20));
    m.observeTransition(j, { jobDeploymentStatus: 'Running', jobStatus: 'RUNNING' }, { jobDeploymentStatus: 'Failed', reason: 'AppFailed' }, t(50));
    m.observeDashboardRequest('get_job', 'ok');
    m.observeDashboardRequest('get_job', 'unavailable');
    m.observeDashboardRequest('get_job', 'unavailable');
    expect(await sample(registry, 'kuberay_job_failed_total', { namespace: 'ns', reason: 'AppFailed' })).toBe(1);
    expect(await sample(registry, 'kuberay_job_deployment_status_duration_seconds', { deployment_status: 'Initializing', le: 20 })).toBe(1);
    expect(await sample(registry, 'kuberay_job_deployment_status_duration_seconds', { deployment_status: 'Initializing', le: 10 })).toBe(0);
    expect(await sample(registry, 'kuberay_job_deployment_status_duration_seconds', { deployment_status: 'Running', le: 60 })).toBe(1);
    expect(await sample(registry, 'kuberay_job_submission_to_running_seconds', { submission_mode: 'K8sJobMode', le: 10 })).toBe(1);
    expect(await sample(registry, 'kuberay_job_submission_to_running_seconds', { submission_mode: 'K8sJobMode', le: 5 })).toBe(0);
    expect(await sample(registry, 'kuberay_job_dashboard_requests_total', { operation: 'get_job', outcome: 'unavailable' })).toBe(2);
    const provisioning = (await registry.getMetricsAsJSON()).find((x) => x.name === 'kuberay_job_cluster_provisioning_failed');
    expect(provisioning?.values.map((v) => v.labels)).toEqual([{ name: 'j', namespace: 'ns', uid: 'u1', reason: 'FailedCreateHeadPod' }]);
  });

  it('a status the operator did not see entered (after a restart) gives no duration; a retry counts as a failed attempt once', async () => {
    const registry = new Registry();
    const m = createRayJobMetrics(registry, () => []);
    const j = rayJob();
    m.observeTransition(j, { jobDeploymentStatus: 'Running' }, { jobDeploymentStatus: 'Retrying', reason: 'SubmissionFailed' }, t(5));
    m.observeTransition(j, { jobDeploymentStatus: 'Retrying' }, { jobDeploymentStatus: 'Retrying', reason: 'SubmissionFailed' }, t(6));
    expect(await sample(registry, 'kuberay_job_deployment_status_duration_seconds', { deployment_status: 'Running', le: '+Inf' })).toBeUndefined();
    expect(await sample(registry, 'kuberay_job_failed_total', { namespace: 'ns', reason: 'SubmissionFailed' })).toBe(1);
  });
});
