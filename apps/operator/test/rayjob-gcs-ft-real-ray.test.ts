// Two RayJobs on one GCS fault-tolerant RayCluster whose head pod is force-deleted mid-job, on real Ray 2.58 and a
// real Redis (compatibility.md S7-2): the operator recreates the head, the new head reads the cluster's GCS back
// from Redis and still knows both jobs, and each RayJob ends as Ray's own state for its job justifies, after one
// submission only (one submission ID per RayJob in Ray's job list, one submitter pod each). Prints the time from
// the head's loss to each RayJob's decision. One cluster and one head loss serve both jobs (CI time, #27).
//
// What Ray 2.58 does with them (observed on the sandbox, and read in Ray's code; S7-2 has the details):
// - A job whose supervisor and driver run on the head (no entrypoint resources) dies with the head pod. The new
//   head's GCS restores it from Redis and the Jobs API keeps answering RUNNING, its driver on the vanished node:
//   nothing marks it FAILED, because only a job manager (one per dashboard agent, created by the first request
//   that needs it: submit, stop, logs) watches supervisors, and recovers the unfinished jobs only when it is
//   created. The old head's manager died with it; the worker's was created (by a log request for the worker's
//   job) before this job was submitted, so it never watches it; nothing creates the new head's before the RayJob
//   decides. So the RayJob's verdict is addition F's (the driver's node missing), after the FT bound, the
//   cluster's GCS reconnect timeout: 60 s here (the worker group carries it, as a user sets it).
// - A job whose supervisor and driver run on a worker (entrypointResources of a custom resource only the worker
//   offers) outlives the head: the worker pod stays, its raylet and the driver follow the head Service's name to
//   the new head, and the driver exits 0 once it reached the new GCS. Yet the supervisor's own GCS client holds
//   the old head Pod's IP (the address the old head's job manager gave it), so its SUCCEEDED never reaches the
//   new head; it gives up (two 30 s timeouts) and exits, and the worker's job manager records the job FAILED
//   ("Job supervisor actor died: ..."). The RayJob follows Ray: Failed/AppFailed with Ray's message.
// Without FT the new head knows nothing: today's head-lost verdict, shown on real Ray by the e2e seed case
// C6-real-ray (e2e/test/real-ray.test.ts).
//
// Why a replacement head may restart on a loaded machine: its raylet waits a fixed 15 s for the dashboard agent's
// port file (Ray 2.58: not configurable) and exits when the agent's imports take longer; the kubelet restarts the
// head container (10 s, 20 s, ... back-off) and the new GCS again reads Redis. The worker's raylet waits up to the
// reconnect timeout for each of those GCS starts.
// Real-Ray tier only (tools/ray/provision.sh and redis-server, as in CI); elsewhere it reports itself skipped.
import { findRealRayBin, findRedisBin } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRedis, DRIVER_RESOURCE, ftClusterSpec, ftDriverWorkers, redisKeysOf } from './support/gcs-ft-redis.ts';
import { clusterPods, startRayClusterEnv, type RayClusterEnv } from './support/raycluster-env.ts';

const rayBin = findRealRayBin();
const redisBin = findRedisBin();
const skipReason = rayBin === undefined
  ? ' (skipped: real Ray is not provisioned; run tools/ray/provision.sh)'
  : redisBin === undefined ? ' (skipped: no redis-server; apt-get install redis-server)' : '';
if (skipReason !== '') console.warn(`RayJobs on a GCS FT cluster whose head is lost${skipReason}`);

const jobsPath = '/apis/ray.io/v1/namespaces/default/rayjobs';
const started = Date.now();
const since = (t: number) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The FT bound the RayJob gives a lost head (compat S7-2), 60 s instead of KubeRay's 600 s so CI stays short. The
 * head job's verdict comes this long after the new head first answers, so it sets most of the file's time; it is
 * also the worker raylet's window to find a GCS again, which must cover a replacement head's restart on a loaded
 * CI machine (the raylet's fixed 15 s agent wait, the kubelet's 10 s back-off, a new GCS start): not shorter.
 */
const RECONNECT_TIMEOUT_SECONDS = 60;

/** The job on the head: a driver that outlives the test unless its head dies. */
const HEAD_JOB = 'ft-head-job';
const HEAD_ENTRYPOINT = `python -c 'import time; print("DRIVER_STARTED", flush=True); time.sleep(3600)'`;

/**
 * The job on the worker: its driver notes the head Service's address (the worker's FQ_RAY_IP), waits for the name
 * to follow a new head Pod and for that Pod's GCS to accept a connection, then exits 0. Its RayJob owns the
 * cluster: it is submitted first, so the worker's job manager exists before the head's job does.
 */
const WORKER_JOB = 'ft-worker-job';
const WORKER_ENTRYPOINT = `python -c '
import os, socket, sys, time
name = os.environ["FQ_RAY_IP"]
first = socket.gethostbyname(name)
print("DRIVER_STARTED on", socket.gethostname(), "head", first, flush=True)
deadline = time.time() + 900
while time.time() < deadline:
    try:
        now = socket.gethostbyname(name)
        if now != first:
            socket.create_connection((now, 6379), timeout=2).close()
            print("NEW_HEAD", now, flush=True)
            sys.exit(0)
    except Exception:
        pass
    time.sleep(0.5)
sys.exit(1)
'`;

const workerRayJob: Json = {
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name: WORKER_JOB, namespace: 'default' },
  // K8sJobMode (the default) with KubeRay's default submitter retries: a re-run submitter would show. The one
  // worker carries the FT bound (its raylet's reconnect timeout) and the resource this job's supervisor needs.
  spec: {
    entrypoint: WORKER_ENTRYPOINT, entrypointResources: JSON.stringify({ [DRIVER_RESOURCE]: 1 }),
    rayClusterSpec: { ...ftClusterSpec('redis:6379'), workerGroupSpecs: [ftDriverWorkers(RECONNECT_TIMEOUT_SECONDS)] },
  },
};
const headRayJob = (cluster: string): Json => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name: HEAD_JOB, namespace: 'default' },
  spec: { entrypoint: HEAD_ENTRYPOINT, clusterSelector: { 'ray.io/cluster': cluster } },
});

let env: RayClusterEnv;
const getJob = async (job: string): Promise<Json> => (await api(env.url, 'GET', `${jobsPath}/${job}`)).body;
const submitterPods = async (job: string): Promise<Json[]> => (await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=job-name%3D${job}`)).body?.items ?? [];
const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const isReady = (p: Json) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');
const restarts = (p: Json) => (p.status?.containerStatuses ?? []).reduce((n: number, c: Json) => n + (c.restartCount ?? 0), 0);
const isDecided = (j: Json) => ['Complete', 'Failed'].includes(j?.status?.jobDeploymentStatus);

/** Ray's Jobs API on a head Pod: a job's details, or undefined while the head does not answer. */
async function rayJobOn(ip: string, id: string): Promise<{ status: number; body: Json } | undefined> {
  try {
    const res = await fetch(`http://${ip}:8265/api/jobs/${id}`, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
  } catch {
    return undefined;
  }
}

/** A job's driver logs as a head Pod serves them ('' while it does not). */
async function driverLogs(ip: string, id: string): Promise<string> {
  const res = await fetch(`http://${ip}:8265/api/jobs/${id}/logs`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
  return res?.ok ? ((await res.json()) as Json).logs as string : '';
}

async function logTails(cluster: string, lines = 30): Promise<string> {
  const out: string[] = [];
  const pods = [...await clusterPods(env.url, cluster), ...await submitterPods(HEAD_JOB), ...await submitterPods(WORKER_JOB)];
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

/** What the new head said about a job, each time it was asked before the job's RayJob was seen decided. */
interface Answer { at: number; status: string; message: string; driverNodeId: string }
/** One RayJob through the head's loss. */
interface Tracked { name: string; id: string; driverNodeId: string; answers: Answer[]; decided?: { job: Json; at: number } }
/** The one head loss both cases judge. */
interface Loss { cluster: string; oldHead: Json; worker: Json; lostAt: number; head: Tracked; onWorker: Tracked }

let scenario: Promise<Loss> | undefined;
let cluster = '';
const dump = async () => {
  console.log(`RayJob ${HEAD_JOB}: ${JSON.stringify((await getJob(HEAD_JOB))?.status)}\nRayJob ${WORKER_JOB}: ${JSON.stringify((await getJob(WORKER_JOB))?.status)}\n${cluster ? await logTails(cluster) : ''}`);
};

/** A RayJob whose job Ray says RUNNING, its driver started (the log request reaches the driver node's agent). */
async function runningJob(name: string, driverStarted: (headIP: string, id: string) => Promise<boolean>): Promise<Tracked> {
  const running = await eventually(`RayJob ${name} Running with Ray's RUNNING`, async () => {
    const j = await getJob(name);
    if (isDecided(j)) throw new Error(`RayJob ${name} decided before the fault: ${JSON.stringify(j.status)}`);
    return j?.status?.jobStatus === 'RUNNING' ? j : undefined;
  }, 420_000, 500);
  const id = running.status.jobId as string;
  const [head] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'));
  await eventually(`the driver of ${name} started`, () => driverStarted(head.status.podIP, id), 120_000, 500);
  const details = await rayJobOn(head.status.podIP, id);
  return { name, id, driverNodeId: details?.body?.driver_node_id ?? '', answers: [] };
}

/** Both jobs running (the worker's first), then the head pod force-deleted; returns once both RayJobs decided. */
async function loseTheHead(): Promise<Loss> {
  expect((await api(env.url, 'POST', jobsPath, workerRayJob)).status).toBe(201);
  cluster = await eventually('the cluster named', async () => (await getJob(WORKER_JOB))?.status?.rayClusterName as string | undefined, 60_000, 250);
  // The log request for the worker's job creates the worker's job manager (it serves that job's logs): it looks
  // for unfinished jobs once, now, when the head's job does not exist yet.
  const onWorker = await runningJob(WORKER_JOB, async (ip, id) => (await driverLogs(ip, id)).includes('DRIVER_STARTED on '));
  const [worker] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=worker'));
  const [firstHead] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'));
  expect(await driverLogs(firstHead.status.podIP, onWorker.id)).toContain(`DRIVER_STARTED on ${worker.metadata.name}`);
  expect((await api(env.url, 'POST', jobsPath, headRayJob(cluster))).status).toBe(201);
  const head = await runningJob(HEAD_JOB, async (ip, id) => (await driverLogs(ip, id)).includes('DRIVER_STARTED'));
  const [oldHead] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'));
  const storage = oldHead.metadata.annotations['ray.io/external-storage-namespace'] as string;
  expect((await redisKeysOf(env.url, redisBin as string, storage)).length).toBeGreaterThan(0);
  console.log(`[rayjob-gcs-ft-real-ray] ${head.id} RUNNING on head ${oldHead.metadata.name}, ${onWorker.id} on worker ${worker.metadata.name}, after ${since(started)}; GCS in Redis under ${storage}`);

  // The head's loss: force deletion, as a node failure or `kubectl delete --force --grace-period=0` does.
  const lostAt = Date.now();
  expect((await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${oldHead.metadata.name}?gracePeriodSeconds=0`)).status).toBe(200);

  // The operator recreates the head; the new head answers for both jobs from what Redis holds. Each answer is
  // recorded until the job's RayJob is seen decided, to compare with its verdict. Bounded by the FT wait plus
  // a few head starts.
  const jobs = [head, onWorker];
  await eventually('both RayJobs decided after the head\'s loss', async () => {
    const [newHead] = live(await clusterPods(env.url, cluster, 'ray.io/node-type=head')).filter((p) => p.metadata.uid !== oldHead.metadata.uid);
    for (const job of jobs.filter((j) => !j.decided)) {
      const answer = newHead && isReady(newHead) ? await rayJobOn(newHead.status.podIP, job.id) : undefined;
      if (answer?.status === 200) job.answers.push({ at: Date.now(), status: answer.body.status, message: answer.body.message ?? '', driverNodeId: answer.body.driver_node_id ?? '' });
      else if (answer) job.answers.push({ at: Date.now(), status: `HTTP ${answer.status}`, message: String(answer.body).slice(0, 200), driverNodeId: '' });
      const j = await getJob(job.name);
      if (isDecided(j)) job.decided = { job: j, at: Date.now() };
    }
    return jobs.every((j) => j.decided);
  }, 780_000, 1000);
  return { cluster, oldHead, worker, lostAt, head, onWorker };
}

/** The head pod now, and what it says of a job (its final word: a terminal status stays). */
async function newHeadNow(loss: Loss): Promise<Json> {
  const [head] = live(await clusterPods(env.url, loss.cluster, 'ray.io/node-type=head'));
  expect(head.metadata.uid).not.toBe(loss.oldHead.metadata.uid);
  return head;
}

function report(loss: Loss, head: Json, job: Tracked, rayNow: Json): void {
  const { job: verdict, at } = job.decided as { job: Json; at: number };
  const known = job.answers.find((a) => !a.status.startsWith('HTTP'));
  const firstLine = (text: string | undefined) => `"${(text ?? '').split('\n')[0]}"`;
  const rayEnd = rayNow?.end_time ? `, ended ${seconds(rayNow.end_time - loss.lostAt)} after the loss` : '';
  console.log(`[rayjob-gcs-ft-real-ray] head lost -> RayJob ${job.name} ${verdict.status.jobDeploymentStatus}/${verdict.status.reason}: ${seconds(at - loss.lostAt)}`
    + ` ${firstLine(verdict.status.message)} (new head's first answer ${known ? `${seconds(known.at - loss.lostAt)}: ${known.status}` : 'none'}, head restarts ${restarts(head)};`
    + ` Ray now ${rayNow?.status} ${firstLine(rayNow?.message)}${rayEnd})`);
}

/** The new head knew the job from Redis: it answered for it, never "not found". */
function expectKnownFromRedis(job: Tracked): void {
  expect(job.answers.some((a) => !a.status.startsWith('HTTP')), JSON.stringify(job.answers)).toBe(true);
  expect(job.answers.filter((a) => a.status === 'HTTP 404'), JSON.stringify(job.answers)).toEqual([]);
}

/**
 * One submission: Ray's job list on the new head holds one entry per RayJob (the IDs they recorded), and this
 * RayJob's submitter ran once.
 */
async function expectOneSubmission(loss: Loss, head: Json, job: Tracked): Promise<void> {
  const listed = (await (await fetch(`http://${head.status.podIP}:8265/api/jobs/`)).json()) as Json[];
  const submissions = listed.filter((j) => j.type === 'SUBMISSION').map((j) => j.submission_id as string);
  expect(submissions.sort()).toEqual([loss.head.id, loss.onWorker.id].sort());
  expect(await submitterPods(job.name)).toHaveLength(1);
  const submitterJob = (await api(env.url, 'GET', `/apis/batch/v1/namespaces/default/jobs/${job.name}`)).body;
  expect((submitterJob.status?.active ?? 0) + (submitterJob.status?.succeeded ?? 0) + (submitterJob.status?.failed ?? 0)).toBe(1);
}

describe.skipIf(skipReason !== '')(`RayJobs on a GCS FT cluster whose head is lost, on real Ray and Redis${skipReason}`, () => {
  beforeAll(async () => {
    env = await startRayClusterEnv({ realRay: true, withRayJobs: true });
    await createRedis(env.url);
  }, 120_000);
  afterAll(async () => {
    if (env) {
      await api(env.url, 'DELETE', `${jobsPath}/${HEAD_JOB}`);
      await api(env.url, 'DELETE', `${jobsPath}/${WORKER_JOB}`);
      await env.stop();
    }
    console.log(`[rayjob-gcs-ft-real-ray] file took ${since(started)}`);
  }, 120_000);
  const theLoss = () => (scenario ??= loseTheHead());

  it('a job whose driver ran on the head: the new head knows it from Redis and says RUNNING with its driver gone, so the RayJob gives addition F\'s verdict after the FT bound; one submission', async () => {
    onTestFailed(dump);
    const loss = await theLoss();
    const head = await newHeadNow(loss);
    const job = loss.head;
    report(loss, head, job, (await rayJobOn(head.status.podIP, job.id))?.body);
    expectKnownFromRedis(job);
    // Ray's own state until the RayJob decided: RUNNING, the driver on the old head's node (gone with its pod),
    // never a terminal status (the job manager that could record one never saw this job).
    const answered = job.answers.filter((a) => !a.status.startsWith('HTTP'));
    expect(answered.map((a) => `${a.status} on ${a.driverNodeId}`), JSON.stringify(job.answers)).toEqual(answered.map(() => `RUNNING on ${job.driverNodeId}`));
    const { job: verdict, at } = job.decided as { job: Json; at: number };
    expect(verdict.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED', jobId: job.id });
    // Addition F's verdict rests on whichever of its two pieces of evidence matured first: the driver's node gone
    // (the new head answered without it for the FT bound), or, when the job's submitter gave up on the lost head
    // first (clean CI under load), the submitter finished with Ray's answer still RUNNING for the grace period.
    expect(verdict.status.message).toMatch(new RegExp(`^(The Ray job's driver node ${job.driverNodeId} has been DEAD or missing since .*within ${RECONNECT_TIMEOUT_SECONDS}s\\)|The RayJob submitter finished at .* but the ray job did not reach terminal state within \\d+s)$`));
    expect(at - loss.lostAt).toBeGreaterThanOrEqual(RECONNECT_TIMEOUT_SECONDS * 1000);
    await expectOneSubmission(loss, head, job);
  }, 20 * 60_000);

  it('a job whose driver runs on a worker outlives the head, but Ray records it FAILED (its supervisor cannot reach the new head): the RayJob ends FAILED with Ray\'s message; one submission', async () => {
    onTestFailed(dump);
    const loss = await theLoss();
    const head = await newHeadNow(loss);
    const job = loss.onWorker;
    const rayNow = (await rayJobOn(head.status.podIP, job.id))?.body;
    report(loss, head, job, rayNow);
    expectKnownFromRedis(job);
    // The head Pod was replaced at a new IP (the address the supervisor's GCS client keeps is gone), the worker
    // never restarted, and its driver reached the new head's GCS through the head Service's name.
    expect(head.status.podIP).not.toBe(loss.oldHead.status.podIP);
    const [worker] = live(await clusterPods(env.url, loss.cluster, 'ray.io/node-type=worker'));
    expect(worker.metadata.uid).toBe(loss.worker.metadata.uid);
    expect(restarts(worker)).toBe(0);
    expect(await driverLogs(head.status.podIP, job.id)).toContain(`NEW_HEAD ${head.status.podIP}`);
    // Ray's final word is FAILED with its supervisor's death, and the RayJob carries exactly that.
    expect(rayNow?.status).toBe('FAILED');
    expect(rayNow.message).toMatch(/^Job supervisor actor died: /);
    const { job: verdict } = job.decided as { job: Json; at: number };
    expect(verdict.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'AppFailed', jobStatus: 'FAILED', jobId: job.id, message: rayNow.message });
    await expectOneSubmission(loss, head, job);
  }, 20 * 60_000);
});
