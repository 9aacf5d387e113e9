// A RayJob on a GCS fault-tolerant RayCluster whose head pod is force-deleted mid-job, on real Ray 2.58 and a real
// Redis (compatibility.md S7-2): the operator recreates the head, the new head reads the cluster's GCS back from
// Redis and still knows the job, and the RayJob waits the FT bound for Ray before its verdict, after one submission
// only (one submission ID in Ray, one submitter pod). Prints the time from the head's loss to the RayJob's decision.
//
// What Ray 2.58 does with such a job (observed 2026-12-06, and read in its code): the job's supervisor actor and
// driver run on the head node (no entrypoint resources) and die with the head pod. The new head's GCS restores the
// job from Redis and the Jobs API keeps answering RUNNING with the old, vanished node as driver node; the supervisor
// actor is DEAD, but nothing marks the job FAILED: Ray 2.58's job manager (which would, on recovery) lives in the
// dashboard agent and is created only by a request that reaches it (submit, stop, logs). So the RayJob's verdict is
// addition F's (the driver's node missing) after the FT bound, the cluster's GCS reconnect timeout, here 60 s (a
// worker group with no replicas carries it, as a user sets it), not Ray's. Without FT the new head knows nothing:
// today's head-lost verdict, shown on real Ray by the e2e seed case C6-real-ray (e2e/test/real-ray.test.ts).
//
// Why a replacement head may restart on a loaded machine: its raylet waits a fixed 15 s for the dashboard agent's
// port file (Ray 2.58: not configurable; RAY_agent_register_timeout_ms bounds other waits, not this one: a raylet
// given 300 ms still waited 9 s for the agent here) and exits when the agent's imports take longer; the kubelet
// restarts the head container (10 s, 20 s, ... back-off) and the new GCS again reads Redis. Each start is bounded
// below by the FT wait the RayJob gives the new head (the cluster's reconnect timeout, KubeRay's 600 s).
// Real-Ray tier only (tools/ray/provision.sh and redis-server, as in CI); elsewhere it reports itself skipped.
import { findRealRayBin, findRedisBin } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRedis, ftClusterSpec, redisKeysOf } from './support/gcs-ft-redis.ts';
import { clusterPods, RAY_IMAGE, startRayClusterEnv, type RayClusterEnv } from './support/raycluster-env.ts';

const rayBin = findRealRayBin();
const redisBin = findRedisBin();
const skipReason = rayBin === undefined
  ? ' (skipped: real Ray is not provisioned; run tools/ray/provision.sh)'
  : redisBin === undefined ? ' (skipped: no redis-server; apt-get install redis-server)' : '';
if (skipReason !== '') console.warn(`a RayJob on a GCS FT cluster whose head is lost${skipReason}`);

const name = 'ft-job';
const jobsPath = '/apis/ray.io/v1/namespaces/default/rayjobs';
const started = Date.now();
const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

/** A driver that outlives the test unless its head dies: whatever ends it is the head's loss. */
const ENTRYPOINT = `python -c 'import time; print("DRIVER_STARTED", flush=True); time.sleep(3600)'`;

/** The FT bound the RayJob gives a lost head (compat S7-2), 60 s instead of KubeRay's 600 s so CI stays short. */
const RECONNECT_TIMEOUT_SECONDS = 60;
const reconnectTimeoutCarrier = {
  groupName: 'none', replicas: 0, minReplicas: 0, maxReplicas: 0, rayStartParams: {},
  template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE, env: [{ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: String(RECONNECT_TIMEOUT_SECONDS) }] }] } },
};

const rayJob: Json = {
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name, namespace: 'default' },
  // K8sJobMode (the default) with KubeRay's default submitter retries: a re-run submitter would show.
  spec: { entrypoint: ENTRYPOINT, rayClusterSpec: { ...ftClusterSpec('redis:6379'), workerGroupSpecs: [reconnectTimeoutCarrier] } },
};

let env: RayClusterEnv;
const getJob = async (): Promise<Json> => (await api(env.url, 'GET', `${jobsPath}/${name}`)).body;
const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const isReady = (p: Json) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
const restarts = (p: Json) => (p.status?.containerStatuses ?? []).reduce((n: number, c: Json) => n + (c.restartCount ?? 0), 0);

/** Ray's Jobs API on a head Pod: a job's details, or undefined while the head does not answer. */
async function rayJobOn(ip: string, id: string): Promise<{ status: number; body: Json } | undefined> {
  try {
    const res = await fetch(`http://${ip}:8265/api/jobs/${id}`, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
  } catch {
    return undefined;
  }
}

async function logTails(cluster: string, lines = 30): Promise<string> {
  const out: string[] = [];
  const pods = [...await clusterPods(env.url, cluster), ...((await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=job-name%3D${name}`)).body?.items ?? [])];
  for (const pod of pods) {
    for (const c of pod.status?.containerStatuses ?? []) {
      for (const previous of (c.restartCount ?? 0) > 0 ? [true, false] : [false]) {
        const res = await fetch(`${env.url}/api/v1/namespaces/default/pods/${pod.metadata.name}/log?container=${c.name}&tailLines=${lines}${previous ? '&previous=true' : ''}`);
        out.push(`--- ${pod.metadata.name}/${c.name}${previous ? ' (previous run)' : ''} (restarts ${c.restartCount})\n${(await res.text()).trimEnd()}`);
      }
    }
  }
  return out.join('\n');
}

describe.skipIf(skipReason !== '')(`a RayJob on a GCS FT cluster whose head is lost, on real Ray and Redis${skipReason}`, () => {
  beforeAll(async () => {
    env = await startRayClusterEnv({ realRay: true, withRayJobs: true });
    await createRedis(env.url);
  }, 120_000);
  afterAll(async () => {
    if (env) {
      await api(env.url, 'DELETE', `${jobsPath}/${name}`);
      await env.stop();
    }
    console.log(`[rayjob-gcs-ft-real-ray] file took ${since(started)}`);
  }, 120_000);

  it('the head pod force-deleted mid-job: the new head knows the job from Redis, the RayJob ends with its status, one submission', async () => {
    let cluster = '';
    onTestFailed(async () => {
      console.log(`RayJob status: ${JSON.stringify((await getJob())?.status)}\n${cluster ? await logTails(cluster) : ''}`);
    });
    expect((await api(env.url, 'POST', jobsPath, rayJob)).status).toBe(201);

    // Ray says RUNNING (as the operator recorded it) and the driver has started: the job is mid-way.
    const running = await eventually('the RayJob Running with Ray\'s RUNNING', async () => {
      const j = await getJob();
      if (j?.status?.jobDeploymentStatus === 'Failed') throw new Error(`RayJob failed before the fault: ${JSON.stringify(j.status)}`);
      return j?.status?.jobStatus === 'RUNNING' ? j : undefined;
    }, 420_000, 500);
    cluster = running.status.rayClusterName;
    const jobId = running.status.jobId as string;
    const [oldHead] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'));
    const oldIP = oldHead.status.podIP as string;
    await eventually('the driver started', async () => {
      const res = await fetch(`http://${oldIP}:8265/api/jobs/${jobId}/logs`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      return res?.ok && ((await res.json()) as Json).logs.includes('DRIVER_STARTED');
    }, 120_000, 500);
    const storage = oldHead.metadata.annotations['ray.io/external-storage-namespace'] as string;
    expect((await redisKeysOf(env.url, redisBin as string, storage)).length).toBeGreaterThan(0);
    console.log(`job ${jobId} RUNNING on head ${oldHead.metadata.name} after ${since(started)}; GCS in Redis under ${storage}`);

    // The head's loss: force deletion, as a node failure or `kubectl delete --force --grace-period=0` does.
    const lostAt = Date.now();
    expect((await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${oldHead.metadata.name}?gracePeriodSeconds=0`)).status).toBe(200);

    // The operator recreates the head; the new head answers for the job from what Redis holds. Every answer it
    // gives is recorded, to compare with the RayJob's verdict. Bounded by the FT wait (600 s) plus a head start.
    const answers: Array<{ at: number; status: string; message: string }> = [];
    let newHead: Json | undefined;
    const decided = await eventually('the RayJob decided after the head\'s loss', async () => {
      const [head] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head')).filter((p) => p.metadata.uid !== oldHead.metadata.uid);
      if (head && isReady(head)) {
        newHead ??= head;
        const answer = await rayJobOn(head.status.podIP, jobId);
        if (answer?.status === 200) answers.push({ at: Date.now(), status: answer.body.status, message: answer.body.message ?? '' });
        else if (answer) answers.push({ at: Date.now(), status: `HTTP ${answer.status}`, message: String(answer.body).slice(0, 200) });
      }
      const j = await getJob();
      return ['Complete', 'Failed'].includes(j?.status?.jobDeploymentStatus) ? j : undefined;
    }, 780_000, 1000);
    const decidedAt = Date.now();
    const [head] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'));
    const known = answers.find((a) => !a.status.startsWith('HTTP'));
    console.log(`[rayjob-gcs-ft-real-ray] head lost -> RayJob ${decided.status.jobDeploymentStatus}/${decided.status.reason}: ${((decidedAt - lostAt) / 1000).toFixed(1)} s`
      + ` (new head Ready ${newHead ? 'seen' : 'never seen'}, restarts ${head ? restarts(head) : '?'}; first answer for the job ${known ? `${((known.at - lostAt) / 1000).toFixed(1)} s: ${known.status} "${known.message}"` : 'none'})`);

    // The new head knew the job from Redis (never "not found") and reported it RUNNING, its driver's node gone; the
    // RayJob waited the FT bound for Ray and then gave addition F's verdict.
    expect(known, JSON.stringify(answers)).toBeDefined();
    expect(answers.filter((a) => a.status === 'HTTP 404'), JSON.stringify(answers)).toEqual([]);
    expect(decided.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED', jobId });
    expect(decided.status.message).toMatch(new RegExp(`^The Ray job's driver node \\S+ has been DEAD or missing since .*within ${RECONNECT_TIMEOUT_SECONDS}s\\)$`));
    expect(decidedAt - lostAt).toBeGreaterThanOrEqual(RECONNECT_TIMEOUT_SECONDS * 1000);

    // One submission: Ray holds one submitted job (the same ID), and the submitter ran once (never re-run).
    const listed = (await (await fetch(`http://${head.status.podIP}:8265/api/jobs/`)).json()) as Json[];
    expect(listed.filter((j) => j.type === 'SUBMISSION').map((j) => j.submission_id)).toEqual([jobId]);
    const submitters: Json[] = (await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=job-name%3D${name}`)).body.items;
    expect(submitters).toHaveLength(1);
    const submitterJob = (await api(env.url, 'GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).body;
    expect((submitterJob.status?.active ?? 0) + (submitterJob.status?.succeeded ?? 0) + (submitterJob.status?.failed ?? 0)).toBe(1);
  }, 20 * 60_000);
});
