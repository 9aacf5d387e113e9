// GCS fault tolerance with a real Redis on the sandbox: KubeRay's external-Redis sample's Redis (a Deployment of the
// `redis` image, its config from a ConfigMap, a password from a Secret) runs Debian's redis-server; a FT RayCluster's
// real Ray 2.58 head keeps its GCS in it; deleting the cluster runs the Redis cleanup Job (real Ray's cleanup) and
// leaves none of the cluster's keys (redis-cli); with Redis unreachable the finalizer is force-removed after the
// cluster's `ray.io/gcs-ft-deletion-timeout` with KubeRay's ForceDeletedStuckCluster event. One real head at a time.
// Runs where real Ray and redis-server are installed (CI); elsewhere it says why it is skipped.
import { createKubeClient, describeError, resources, type KubeObject } from '@rayjob/kube-runtime';
import { findRealRayBin, findRedisBin } from '@rayjob/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from './support/api.ts';
import { createRedis, ftCluster, redisKeysOf } from './support/gcs-ft-redis.ts';
import { clusterEvents, clusterPath, clusterPods, getCluster, useRayClusterEnv, waitForState, type RayClusterEnv } from './support/raycluster-env.ts';

const rayBin = findRealRayBin();
const redisBin = findRedisBin();
const skipReason = rayBin === undefined
  ? ' (skipped: real Ray is not provisioned; run tools/ray/provision.sh)'
  : redisBin === undefined ? ' (skipped: no redis-server; apt-get install redis-server)' : '';
if (skipReason !== '') console.warn(`GCS fault tolerance on real Ray and Redis${skipReason}`);

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

let env: RayClusterEnv;
const keysOf = (namespace: string) => redisKeysOf(env.url, redisBin as string, namespace);

describe.skipIf(skipReason !== '')(`GCS fault tolerance on real Ray and Redis${skipReason}`, () => {
  env = useRayClusterEnv({ realRay: true });
  beforeAll(() => createRedis(env.url), 60_000);

  it('deleting a FT RayCluster runs the Redis cleanup Job and leaves none of its keys in Redis', async () => {
    const name = 'ft-delete';
    const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', ftCluster(name, 'redis:6379'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ready = await waitForState(env.url, name, 'ready', 420_000);
    console.log(`FT cluster ready after ${elapsed()}`);
    expect(ready.metadata.finalizers).toEqual(['ray.io/gcs-ft-redis-cleanup-finalizer']);
    const storage = ready.metadata.uid as string;
    const keys = await eventually('the head\'s GCS keys in Redis', async () => {
      const found = await keysOf(storage);
      return found.length > 0 ? found : undefined;
    }, 60_000, 500);
    console.log(`${keys.length} keys of storage namespace ${storage} in Redis, e.g. ${keys.slice(0, 3).join(', ')}`);

    // The Job goes with its cluster (owner reference), so its last state is read from a watch started before the
    // deletion: a poll can miss it (the Job completes, the finalizer goes and the GC deletes the Job between two GETs).
    const jobConditions = await watchTrueConditions(env.url, `${name}-redis-cleanup`);
    const deletedAt = Date.now();
    await api(env.url, 'DELETE', clusterPath(name));
    const job = await eventually('the Redis cleanup Job', async () => {
      const got = await api(env.url, 'GET', `/apis/batch/v1/namespaces/default/jobs/${name}-redis-cleanup`);
      return got.status === 200 ? got.body : undefined;
    }, 120_000, 500);
    expect(job.metadata.labels['ray.io/node-type']).toBe('redis-cleanup');
    expect(job.metadata.annotations['ray.io/external-storage-namespace']).toBe(storage);
    expect(await clusterPods(env.url, name, 'ray.io/node-type=head')).toEqual([]); // the head went first
    await eventually('the RayCluster gone', async () => (await api(env.url, 'GET', clusterPath(name))).status === 404 || undefined, 180_000, 250);
    const seen = await eventually('the cleanup Job\'s completion seen by the watch', () => {
      if (jobConditions.failed !== undefined) throw new Error(`the watch failed: ${jobConditions.failed}`);
      return (jobConditions.seen.has('Complete') || jobConditions.seen.has('SuccessCriteriaMet')) && [...jobConditions.seen];
    }, 30_000, 100).finally(() => jobConditions.stop());
    console.log(`FT cluster deleted in ${((Date.now() - deletedAt) / 1000).toFixed(1)} s; cleanup Job: ${seen.join(', ')}`);
    expect(await keysOf(storage)).toEqual([]);
    const reasons = (await clusterEvents(env.url, name)).map((e) => e.reason);
    expect(reasons).toContain('CreatedRedisCleanupJob');
    expect(reasons).not.toContain('ForceDeletedStuckCluster');
  }, 720_000);

  it('with Redis unreachable the finalizer is force-removed after the deletion timeout, with KubeRay\'s event', async () => {
    const name = 'ft-stuck';
    // Nothing listens on this port: the head cannot start, and the cleanup Job's Ray keeps retrying its connection
    // for 60 s (KubeRay's 120 x 500 ms), far past the cluster's 5 s deletion timeout.
    const cluster = ftCluster(name, 'redis:6380', { 'ray.io/gcs-ft-deletion-timeout': '5' });
    expect((await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', cluster)).status).toBe(201);
    await eventually('the finalizer added', async () => ((await getCluster(env.url, name)).metadata.finalizers ?? []).includes('ray.io/gcs-ft-redis-cleanup-finalizer') || undefined, 30_000, 250);
    await eventually('a head Pod', async () => ((await clusterPods(env.url, name, 'ray.io/node-type=head')).length > 0) || undefined, 30_000, 250);
    const deleted = await api(env.url, 'DELETE', clusterPath(name));
    // The timeout counts from the deletionTimestamp, which has whole seconds (up to 1 s before the DELETE):
    // measured from it, not from the test's own clock at the call.
    const deletedAt = Date.parse(deleted.body.metadata.deletionTimestamp);
    expect(deletedAt, JSON.stringify(deleted.body)).toBeGreaterThan(0);
    await eventually('the RayCluster gone', async () => (await api(env.url, 'GET', clusterPath(name))).status === 404 || undefined, 120_000, 500);
    const seconds = (Date.now() - deletedAt) / 1000;
    const events = await clusterEvents(env.url, name);
    const forced = events.find((e) => e.reason === 'ForceDeletedStuckCluster');
    console.log(`stuck FT cluster released ${seconds.toFixed(1)} s after its deletionTimestamp: ${forced?.note}`);
    expect(forced).toMatchObject({ type: 'Warning', action: 'Cleanup' });
    expect(forced.note).toMatch(/^Force-removed GCS FT finalizer after [\d.ms]+s due to Redis cleanup timeout; Redis storage namespace "" may need manual cleanup$/);
    expect(seconds).toBeGreaterThanOrEqual(5);
  }, 240_000);
});

type Job = KubeObject & { status?: { conditions?: { type: string; status: string }[] } };

/**
 * Every condition type the named Job showed True, from a kube-runtime watch that starts at the Job list's current
 * resourceVersion: every change after this call is delivered however late the watch connects. `failed` is the
 * watch's error if it ended with one (a lost watch would otherwise only show as the completion never seen).
 */
async function watchTrueConditions(url: string, jobName: string): Promise<{ seen: Set<string>; readonly failed: string | undefined; stop: () => void }> {
  const client = await createKubeClient({ server: url });
  const listed = await client.list<Job>(resources.jobs, { namespace: 'default', fieldSelector: `metadata.name=${jobName}` });
  if (!listed.ok) throw new Error(`listing Jobs: ${describeError(listed.error)}`);
  const seen = new Set<string>();
  const abort = new AbortController();
  let failed: string | undefined;
  const note = (job: Job) => {
    for (const c of job.status?.conditions ?? []) if (c.status === 'True') seen.add(c.type);
  };
  for (const job of listed.value.items) note(job);
  void client.watch<Job>(resources.jobs, {
    namespace: 'default', fieldSelector: `metadata.name=${jobName}`, resourceVersion: listed.value.metadata.resourceVersion, signal: abort.signal,
    onEvent: (e) => {
      if (e.type === 'ERROR') failed = e.object.message ?? JSON.stringify(e.object);
      else if (e.type !== 'BOOKMARK') note(e.object);
    },
  }).then((end) => { if (!end.ok) failed = describeError(end.error); });
  return {
    seen,
    get failed() { return failed; },
    stop: () => { abort.abort(); void client.close(); },
  };
}
