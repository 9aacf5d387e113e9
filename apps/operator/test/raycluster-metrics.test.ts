// KubeRay's scrape-time RayCluster series, read from the clusters as the cache holds them (no schema parse per
// scrape): one kuberay_cluster_info per cluster with its owner kind, and kuberay_cluster_condition_provisioned.
import type { KubeObject } from '@rayjob/kube-runtime';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRayClusterMetrics } from '../src/controllers/raycluster/metrics.ts';

const cluster = (name: string, extra: { labels?: Record<string, string>; status?: unknown } = {}): KubeObject =>
  ({ apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name, namespace: 'team', uid: `uid-${name}`, ...(extra.labels && { labels: extra.labels }) }, ...(extra.status !== undefined && { status: extra.status }) }) as KubeObject;

const provisioned = (status: string) => ({ conditions: [{ type: 'HeadPodReady', status: 'True' }, { type: 'RayClusterProvisioned', status }] });

describe('RayCluster series at scrape time', () => {
  it.each([
    ['a provisioned cluster made by a RayJob', cluster('a', { labels: { 'ray.io/originated-from-crd': 'RayJob' }, status: provisioned('True') }), 'RayJob', 'true'],
    ['a cluster not provisioned yet, made by hand', cluster('b', { status: provisioned('False') }), 'None', 'false'],
    ['a cluster without a status', cluster('c'), 'None', 'false'],
    ['a status whose conditions are not a list', cluster('d', { status: { conditions: 'none' } }), 'None', 'false'],
    ['conditions holding a null', cluster('e', { status: { conditions: [null, { type: 'RayClusterProvisioned', status: 'True' }] } }), 'None', 'true'],
  ])('%s', async (_what, object, ownerKind, condition) => {
    const registry = new Registry();
    createRayClusterMetrics(registry, () => [object]);
    const text = await registry.metrics();
    const name = object.metadata.name ?? '';
    expect(text).toContain(`kuberay_cluster_info{name="${name}",namespace="team",uid="uid-${name}",owner_kind="${ownerKind}"} 1`);
    expect(text).toContain(`kuberay_cluster_condition_provisioned{name="${name}",namespace="team",uid="uid-${name}",condition="${condition}"} 1`);
  });

  it('follows the cache: a cluster gone from it is gone from the next scrape', async () => {
    const registry = new Registry();
    let cached = [cluster('a'), cluster('b')];
    createRayClusterMetrics(registry, () => cached);
    expect((await registry.metrics()).match(/^kuberay_cluster_info\{/gm)).toHaveLength(2);
    cached = [cluster('b')];
    const text = await registry.metrics();
    expect(text.match(/^kuberay_cluster_info\{/gm)).toHaveLength(1);
    expect(text).not.toContain('name="a"');
  });
});
