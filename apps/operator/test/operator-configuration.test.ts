// KubeRay's operator settings this operator accepts without building the feature: the gates for mTLS and
// NetworkPolicies, a batch scheduler, and KubeRay's `--config` file. The operator starts with all of them; each
// valid object using an ignored feature gets one Warning event (UnsupportedFeature) however often it is
// reconciled, and the configuration file's Pod defaults reach the Pods the RayCluster controller builds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWarnedOnce, ignoredFeatures } from '../src/controllers/ignored-features.ts';
import { api, eventually, type Json } from './support/api.ts';
import { clusterEvents, clusterPods, getCluster, patchCluster, RAY_IMAGE, startRayClusterEnv, type RayClusterEnv } from './support/raycluster-env.ts';

const none = { batchScheduler: '', kubernetesWAS: false };

describe('ignoredFeatures', () => {
  it.each([
    { spec: {}, meta: {}, ctx: none, want: [] },
    { spec: { enableInTreeAutoscaling: true }, meta: {}, ctx: none, want: [] }, // built since issue 22
    // Redis-backed GCS fault tolerance is built (R11): no warning; the RocksDB backend is not.
    { spec: { gcsFaultToleranceOptions: { redisAddress: 'r:6379' } }, meta: {}, ctx: none, want: [] },
    { spec: {}, meta: { annotations: { 'ray.io/ft-enabled': 'true' } }, ctx: none, want: [] },
    { spec: { gcsFaultToleranceOptions: { backend: 'rocksdb' } }, meta: {}, ctx: none, want: ['backend rocksdb'] },
    { spec: { headGroupSpec: { enableIngress: true } }, meta: {}, ctx: none, want: ['enableIngress'] },
    { spec: { tlsOptions: {} }, meta: {}, ctx: none, want: ['tlsOptions'] },
    { spec: { networkPolicy: {} }, meta: {}, ctx: none, want: ['networkPolicy'] },
    { spec: { historyServerOptions: {} }, meta: {}, ctx: none, want: ['historyServerOptions'] },
    { spec: {}, meta: {}, ctx: { batchScheduler: 'volcano', kubernetesWAS: false }, want: ['batch scheduler volcano'] },
    { spec: {}, meta: {}, ctx: { batchScheduler: '', kubernetesWAS: true }, want: ['KubernetesWAS'] },
    { spec: {}, meta: { labels: { 'ray.io/scheduler-name': 'yunikorn' } }, ctx: none, want: ['ray.io/scheduler-name=yunikorn'] },
  ])('$want', ({ spec, meta, ctx, want }) => {
    const found = ignoredFeatures(spec as never, meta, ctx);
    expect(found).toHaveLength(want.length);
    want.forEach((w, i) => expect(found[i]).toContain(w));
  });

  it('warns once per object and feature set, forgets deleted objects, and stays bounded', () => {
    const warned = createWarnedOnce(3);
    expect(warned.first('a', ['x'])).toBe(true);
    expect(warned.first('a', ['x'])).toBe(false);
    expect(warned.first('a', ['x', 'y'])).toBe(true);
    warned.forget('a');
    expect(warned.first('a', ['x', 'y'])).toBe(true);
    for (let i = 0; i < 100; i++) warned.first(`o${i}`, ['x']);
    expect(warned.size).toBe(3);
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'operator-configuration-'));
const configFile = join(scratch, 'config.yaml');
// As KubeRay's chart writes it with `configuration.enabled: true`.
writeFileSync(configFile, [
  'apiVersion: config.ray.io/v1alpha1',
  'kind: Configuration',
  'enableLeaderElection: false',
  'metricsAddr: "0"',
  'probeAddr: "0"',
  'batchScheduler: volcano',
  'headSidecarContainers:',
  '- name: log-shipper',
  '  image: busybox',
  '  command: [sh, -c, "sleep 3600"]',
  'defaultContainerEnvs:',
  '- name: RAY_DEDUP_LOGS',
  '  value: "0"',
  'defaultPodLabels:',
  '  cost-center: "42"',
  'defaultPodAnnotations:',
  '  team: ml',
].join('\n'));

let env: RayClusterEnv;
beforeAll(async () => {
  env = await startRayClusterEnv({
    withRayJobs: true,
    // KubeRay's chart default gate list, with the two alpha gates for features this operator does not build on.
    argv: ['--config', configFile, '--feature-gates=RayClusterStatusConditions=true,RayJobDeletionPolicy=true,RayMultiHostIndexing=true,RayServiceIncrementalUpgrade=true,RayCronJob=false,RayClusterMTLS=true,RayClusterNetworkPolicy=true,RayClusterHistoryServer=false'],
  });
}, 120_000);
afterAll(async () => {
  await env?.stop();
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

const headTemplate = { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '2Gi' } } }] } };
const unsupported = (events: Json[]) => events.filter((e) => e.reason === 'UnsupportedFeature');

describe('operator configuration on the sandbox', { timeout: 120_000 }, () => {
  it('a RayCluster using mTLS and a NetworkPolicy (gates on) runs, gets one Warning naming them, and its head Pod has the --config defaults', async () => {
    const cluster = {
      apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'ignored', namespace: 'default' },
      spec: { rayVersion: '2.58.0', tlsOptions: { enabled: false }, networkPolicy: { mode: 'DenyAllIngress' }, headGroupSpec: { rayStartParams: {}, template: headTemplate } },
    };
    const created = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', cluster);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [event] = await eventually('the UnsupportedFeature event', async () => {
      const found = unsupported(await clusterEvents(env.url, 'ignored'));
      return found.length > 0 ? found : undefined;
    }, 30_000, 100);
    expect(event).toMatchObject({ type: 'Warning', action: 'Validate', reportingController: 'raycluster-controller' });
    for (const phrase of ['batch scheduler volcano', 'tlsOptions', 'networkPolicy']) expect(event.note).toContain(phrase);

    const head = await eventually('the head Pod', async () => (await clusterPods(env.url, 'ignored', 'ray.io/node-type=head'))[0], 30_000, 100);
    expect(head.metadata.labels['cost-center']).toBe('42');
    expect(head.metadata.annotations.team).toBe('ml');
    expect(head.spec.containers.map((c: Json) => c.name)).toEqual(['ray-head', 'log-shipper']);
    expect(head.spec.containers[0].env).toEqual(expect.arrayContaining([{ name: 'RAY_DEDUP_LOGS', value: '0' }]));

    // More passes (label changes re-trigger it, and the status write after each), still one Warning, never repeated.
    for (const n of ['1', '2']) {
      await patchCluster(env.url, 'ignored', { metadata: { labels: { pass: n } } });
      await eventually(`pass ${n} seen`, async () => (await getCluster(env.url, 'ignored'))?.status?.observedGeneration !== undefined, 10_000);
    }
    await eventually('the head Pod ready', async () => (await getCluster(env.url, 'ignored'))?.status?.readyWorkerReplicas !== undefined || undefined, 60_000, 200);
    const after = unsupported(await clusterEvents(env.url, 'ignored'));
    expect(after).toHaveLength(1);
    expect(after[0].series).toBeUndefined();
  });

  it('a RayJob whose cluster asks for an Ingress gets one Warning saying it is not created', async () => {
    const rayJob = {
      apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'with-ingress', namespace: 'default' },
      spec: { entrypoint: 'echo hi', rayClusterSpec: { rayVersion: '2.58.0', headGroupSpec: { enableIngress: true, rayStartParams: {}, template: headTemplate } } },
    };
    expect((await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob)).status).toBe(201);
    const events = async () => ((await api(env.url, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events')).body?.items ?? [] as Json[])
      .filter((e: Json) => e.regarding?.kind === 'RayJob' && e.regarding?.name === 'with-ingress' && e.reason === 'UnsupportedFeature');
    const [event] = await eventually('the RayJob\'s UnsupportedFeature event', async () => ((await events()).length > 0 ? await events() : undefined), 30_000, 100);
    expect(event.type).toBe('Warning');
    expect(event.note).toContain('enableIngress: no Ingress is created');
    // The RayJob keeps being reconciled (it creates its cluster, which is warned about too); no repeat on the RayJob.
    const clusterName = await eventually('the RayJob\'s cluster', async () => (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/with-ingress')).body?.status?.rayClusterName, 30_000, 100);
    const [clusterEvent] = await eventually('the cluster\'s UnsupportedFeature event', async () => {
      const found = unsupported(await clusterEvents(env.url, clusterName));
      return found.length > 0 ? found : undefined;
    }, 30_000, 100);
    expect(clusterEvent.note).toContain('enableIngress');
    await eventually('the head Pod', async () => (await clusterPods(env.url, clusterName, 'ray.io/node-type=head'))[0], 30_000, 100);
    expect(await events()).toHaveLength(1);
  });
});
