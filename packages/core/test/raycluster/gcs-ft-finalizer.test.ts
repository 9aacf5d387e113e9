// The Redis-cleanup finalizer of GCS-FT clusters (reference §8), and the cleanup Job KubeRay builds for it.
import { describe, expect, it } from 'vitest';
import { buildRedisCleanupJob, formatGoDuration, planGcsFtFinalizer, redisCleanupJobName, type K8sJob, type RayCluster, type RayClusterInput } from '../../src/index.ts';
import { pod, sampleCluster, settings, T0 } from './fixtures.ts';

const FINALIZER = 'ray.io/gcs-ft-redis-cleanup-finalizer';
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function ftCluster(more: (c: RayClusterInput) => void = () => {}): RayCluster {
  return sampleCluster((c) => {
    c.spec.gcsFaultToleranceOptions = { redisAddress: 'redis:6379', redisPassword: { valueFrom: { secretKeyRef: { name: 's', key: 'password' } } } };
    more(c);
  });
}
const deleting = (more: (c: RayClusterInput) => void = () => {}) =>
  ftCluster((c) => {
    c.metadata.finalizers = [FINALIZER];
    c.metadata.deletionTimestamp = T0.toISOString();
    more(c);
  });
const job = (condition?: 'Complete' | 'Failed'): K8sJob => ({
  metadata: { name: 'rayjob-sample-x7k2p-redis-cleanup' },
  status: condition ? { conditions: [{ type: condition, status: 'True' }] } : { active: 1 },
});
const head = pod({ name: 'h', type: 'head' });
const workerPod = pod({ name: 'w1' });

describe('the Redis cleanup finalizer, step by step', () => {
  it.each([
    ['FT with Redis and no finalizer: added before anything else', ftCluster(), [], undefined, 0, settings, 'addFinalizer', []],
    ['finalizer already there: the pass goes on', ftCluster((c) => { c.metadata.finalizers = [FINALIZER]; }), [], undefined, 0, settings, 'proceed', []],
    ['legacy annotation form: added too', sampleCluster((c) => { c.metadata.annotations = { 'ray.io/ft-enabled': 'true' }; }), [], undefined, 0, settings, 'addFinalizer', []],
    ['no FT: nothing', sampleCluster(), [], undefined, 0, settings, 'proceed', []],
    ['ENABLE_GCS_FT_REDIS_CLEANUP=false: no finalizer', ftCluster(), [], undefined, 0, { ...settings, enableGcsFtRedisCleanup: false }, 'proceed', []],
    ['deleting with the head still there: Pods deleted, wait for the head', deleting(), [head, workerPod], undefined, 1, settings, 'waitForHead', ['h', 'w1']],
    ['a head already terminating is not deleted again', deleting(), [{ ...head, metadata: { ...head.metadata, deletionTimestamp: T0.toISOString() } }], undefined, 1, settings, 'waitForHead', []],
    ['head gone: workers deleted and the cleanup Job created in the same pass', deleting(), [workerPod], undefined, 5, settings, 'createCleanupJob', ['w1']],
    ['the Job runs: wait', deleting(), [], job(), 20, settings, 'waitForCleanupJob', []],
    ['the Job completed: finalizer removed', deleting(), [], job('Complete'), 30, settings, 'removeFinalizer', []],
    ['the Job failed: finalizer removed too (best effort)', deleting(), [], job('Failed'), 90, settings, 'removeFinalizer', []],
    ['300 s after deletion with the Job still running: force-removed', deleting(), [], job(), 300, settings, 'removeFinalizer', []],
    ['the annotation shortens the timeout', deleting((c) => { c.metadata.annotations = { 'ray.io/gcs-ft-deletion-timeout': '5' }; }), [], job(), 5, settings, 'removeFinalizer', []],
    ['deleting with cleanup disabled: the finalizer (left by KubeRay) is dropped, no Job', deleting(), [], undefined, 1, { ...settings, enableGcsFtRedisCleanup: false }, 'removeFinalizer', []],
    ['deleting after FT was turned off: dropped', deleting((c) => { delete c.spec.gcsFaultToleranceOptions; }), [], undefined, 1, settings, 'removeFinalizer', []],
    ['deleting without the finalizer: nothing to do', ftCluster((c) => { c.metadata.deletionTimestamp = T0.toISOString(); }), [head], undefined, 1, settings, 'proceed', []],
  ] as const)('%s', (_name, cluster, pods, cleanupJob, seconds, s, kind, deletePods) => {
    const plan = planGcsFtFinalizer({ cluster, pods, cleanupJob, now: at(seconds) }, s);
    expect(plan.step.kind).toBe(kind);
    expect(plan.deletePods).toEqual(deletePods);
  });

  it('the forced removal says KubeRay\'s ForceDeletedStuckCluster with the age and the storage namespace annotation', () => {
    const cluster = deleting((c) => { c.metadata.annotations = { 'ray.io/external-storage-namespace': 'ns-1' }; });
    const plan = planGcsFtFinalizer({ cluster, pods: [], cleanupJob: job(), now: new Date(T0.getTime() + 300_250) }, settings);
    expect(plan.step).toEqual({
      kind: 'removeFinalizer',
      why: 'timed-out',
      event: {
        type: 'Warning',
        reason: 'ForceDeletedStuckCluster',
        action: 'Cleanup',
        note: 'Force-removed GCS FT finalizer after 5m0.25s due to Redis cleanup timeout; Redis storage namespace "ns-1" may need manual cleanup',
      },
    });
  });
  it('a finished Job removes the finalizer without an event', () => {
    const plan = planGcsFtFinalizer({ cluster: deleting(), pods: [], cleanupJob: job('Complete'), now: at(3) }, settings);
    expect(plan.step).toEqual({ kind: 'removeFinalizer', why: 'cleanup-finished', jobCondition: 'Complete' });
  });
});

describe('the Redis cleanup Job', () => {
  const built = buildRedisCleanupJob(deleting(), settings, 'hash');
  const container = built.spec!.template.spec!.containers![0]!;
  it('named <cluster>-redis-cleanup, owned by the cluster, one try for at most 300 s', () => {
    expect(built.metadata.name).toBe('rayjob-sample-x7k2p-redis-cleanup');
    expect(built.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'RayCluster', name: 'rayjob-sample-x7k2p', controller: true });
    expect(built.spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 300 });
    expect(built.spec!.template.spec!.restartPolicy).toBe('Never');
    expect(redisCleanupJobName(sampleCluster((c) => { c.metadata.name = 'x'.repeat(60); }))).toHaveLength(63);
  });
  it('the head Pod\'s labels with node-type redis-cleanup and its annotations (the storage namespace)', () => {
    expect(built.metadata.labels).toMatchObject({ 'ray.io/node-type': 'redis-cleanup', 'ray.io/cluster': 'rayjob-sample-x7k2p', 'ray.io/group': 'headgroup' });
    expect(built.metadata.annotations).toMatchObject({ 'ray.io/external-storage-namespace': 'uid-1', 'ray.io/ft-enabled': 'true' });
    expect(built.spec!.template.metadata?.labels?.['ray.io/node-type']).toBe('redis-cleanup');
  });
  it('only the Ray container, no probes, small fixed resources, the head\'s Redis env plus 60 s of connection retries', () => {
    expect(built.spec!.template.spec!.containers).toHaveLength(1);
    expect(container.livenessProbe).toBeUndefined();
    expect(container.readinessProbe).toBeUndefined();
    expect(container.resources).toEqual({ limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    const names = (container.env ?? []).map((e) => e.name);
    expect(names.slice(0, 3)).toEqual(['RAY_external_storage_namespace', 'RAY_REDIS_ADDRESS', 'REDIS_PASSWORD']);
    expect(names.slice(-2)).toEqual(['RAY_redis_db_connect_retries', 'RAY_redis_db_connect_wait_milliseconds']);
    expect(container.command).toEqual(['/bin/bash', '-c', '--']);
    expect(container.args?.[0]).toContain('cleanup_redis_storage(');
    expect(container.args?.[0]).not.toContain('username=');
  });
  it('with a username the script passes it', () => {
    const c = deleting((x) => { x.spec.gcsFaultToleranceOptions!.redisUsername = { value: 'u' }; });
    expect(buildRedisCleanupJob(c, settings, 'h').spec!.template.spec!.containers![0]!.args?.[0]).toContain("username=os.getenv('REDIS_USERNAME'");
  });
});

describe('Go durations in events', () => {
  it.each([[0, '0s'], [250, '250ms'], [5000, '5s'], [5200, '5.2s'], [300_250, '5m0.25s'], [3_723_000, '1h2m3s']])('%d ms -> %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });
});
