// Dashboard requests of a steadily RUNNING job, on a virtual clock: the reconciler runs each time it asks to be
// requeued, against a real Ray emulator through the real dashboard client; the cache and the API server are
// in-memory stand-ins (only the RayJob's own status writes matter here). Issue 9: "The dashboard is asked only
// when core says it needs an answer; one node-summary request per cluster serves every job on it (rules 4, F);
// an inconclusive answer never counts as dead" — goal <= 2 requests per running job per minute.
import { defaultDecisionSettings, type K8sJob, type Pod, type RayCluster, type RayJob, type Service } from '@rayjob/core';
import { createRayClient } from '@rayjob/ray-client';
import { startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RUNNING_POLL_SECONDS } from '../src/controllers/rayjob/controller.ts';
import { createDashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import type { JobFollowers } from '../src/controllers/rayjob/job-followers.ts';
import { createStatusWriter, resources, silentLogger, type KubeClient, type KubeObject } from '@rayjob/kube-runtime';
import { createNodeTables } from '../src/controllers/rayjob/node-tables.ts';
import type { ObjectView } from '../src/controllers/rayjob/observe.ts';
import { createRayJobState, reconcileRayJob } from '../src/controllers/rayjob/reconcile.ts';
import { silentEvents } from './support/rayjob-execute.ts';
import { eventually } from './support/api.ts';

let emulator: RayEmulator;
beforeAll(async () => {
  emulator = await startRayEmulator({ timing: { nodeDeathDelayMs: 100 } });
});
afterAll(async () => {
  await emulator?.stop();
});

const T0 = Date.parse('2026-12-03T10:00:00Z');

/** One HTTPMode RayJob Running on its cluster, the cache and API server in memory, the clock virtual. */
async function world(jobId: string, mode: 'HTTPMode' | 'K8sJobMode' = 'HTTPMode') {
  const ray = createRayClient({ address: emulator.url });
  const submitted = await ray.submit({ entrypoint: 'sleep 100000', submission_id: jobId });
  if (submitted.kind !== 'ok') throw new Error(`submit: ${submitted.kind}`);
  await eventually('the job to run', async () => {
    const j = await ray.getJob(jobId);
    return j.kind === 'ok' && j.value.status === 'RUNNING' && !!j.value.driver_node_id;
  }, 20_000);
  await ray.close();

  const uid = `uid-${jobId}`;
  const owner = [{ apiVersion: 'ray.io/v1', kind: 'RayJob', name: jobId, uid, controller: true }];
  let rv = 1;
  let rayJob = {
    apiVersion: 'ray.io/v1', kind: 'RayJob',
    metadata: { name: jobId, namespace: 'default', uid, resourceVersion: String(rv), generation: 1, finalizers: ['ray.io/rayjob-finalizer'] },
    spec: { submissionMode: mode, entrypoint: 'sleep 100000', rayClusterSpec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } } } },
    status: {
      jobId, rayClusterName: `${jobId}-c`, dashboardURL: emulator.url.replace(/^http:\/\//, ''), jobDeploymentStatus: 'Running', jobStatus: 'RUNNING',
      startTime: new Date(T0).toISOString().replace(/\.\d+Z$/, 'Z'), observedGeneration: 1,
    },
  } as unknown as RayJob;
  const cluster = { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: `${jobId}-c`, namespace: 'default', uid: `${uid}-c`, ownerReferences: owner }, spec: rayJob.spec.rayClusterSpec, status: { state: 'ready' } } as unknown as RayCluster;
  const services = new Map<string, Service>();
  const view: ObjectView = {
    rayJob: () => rayJob,
    rayCluster: () => cluster,
    service: (_ns, name) => services.get(name),
    // K8sJobMode: the submitter Job, still running (neither Complete nor Failed).
    job: () => (mode === 'K8sJobMode' ? ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: jobId, namespace: 'default', uid: `${uid}-j`, ownerReferences: owner }, spec: {}, status: { active: 1 } } as unknown as K8sJob) : undefined),
    pods: () => [] as Pod[],
  };
  const ok = <T,>(value: T) => Promise.resolve({ ok: true as const, value });
  const client = {
    create: (_type: unknown, obj: KubeObject) => {
      services.set(obj.metadata.name ?? '', { ...obj, metadata: { ...obj.metadata, ownerReferences: owner } } as Service);
      return ok(obj);
    },
    replaceStatus: (_type: unknown, next: RayJob) => {
      rayJob = { ...next, metadata: { ...next.metadata, resourceVersion: String(++rv) } };
      return ok(rayJob);
    },
  } as unknown as KubeClient;
  let now = T0;
  const dashboards = createDashboardClients({ useKubernetesProxy: false }, () => Promise.resolve(undefined));
  /**
   * The log tail as the follower reports it: open, or closed (Ray closes it on the job's end or the agent's loss);
   * spent: the job printed more than the tail's budget, so it is no longer followed.
   */
  const tail = { open: true, spent: false };
  const followers: JobFollowers = { follow: () => undefined, stop: () => undefined, isFollowing: () => tail.open, budgetSpent: () => tail.spent, stopAll: () => Promise.resolve() };
  const deps = {
    view, client, status: createStatusWriter({ client, type: resources.rayJobs, changed: () => true }), events: silentEvents,
    dashboards, followers, nodeTables: createNodeTables(1_000, () => now),
    settings: defaultDecisionSettings, runningPollSeconds: DEFAULT_RUNNING_POLL_SECONDS,
    state: createRayJobState(() => new Date(now)),
    now: () => new Date(now),
  };
  /** Reconciles whenever the reconciler asks, for `seconds` of virtual time; the requests it sent, by route. */
  async function runFor(seconds: number): Promise<{ jobGets: number; nodeGets: number }> {
    const mark = emulator.requests().length;
    const end = now + seconds * 1000;
    while (now < end && !['Complete', 'Failed'].includes(rayJob.status?.jobDeploymentStatus ?? '')) {
      const r = await reconcileRayJob('default', jobId, deps, silentLogger);
      // done with a requeue: after requeueAfterMs, or at once ({requeue}: core asked for 0 s)
      if (!r || r.error !== undefined || (r.requeueAfterMs === undefined && !r.requeue)) throw new Error(`reconcile: ${JSON.stringify(r)}`);
      now += Math.max((r.requeueAfterMs ?? 0) / 1000, 0.05) * 1000;
    }
    const sent = emulator.requests().slice(mark);
    return {
      jobGets: sent.filter((q) => q.method === 'GET' && q.path.startsWith(`/api/jobs/${jobId}`)).length,
      nodeGets: sent.filter((q) => q.path.startsWith('/nodes')).length,
    };
  }
  return { runFor, tail, status: () => rayJob.status, close: () => dashboards.close() };
}

describe('dashboard requests of a running job', { timeout: 60_000 }, () => {
  it('a RUNNING job whose log tail is open costs at most 2 dashboard requests per minute (job status and node summary together)', async () => {
    const w = await world('steady-1');
    await w.runFor(5); // start-up: the first answers and the first node check
    const minutes = 20;
    const { jobGets, nodeGets } = await w.runFor(minutes * 60);
    await w.close();
    expect(w.status()?.jobDeploymentStatus).toBe('Running');
    expect((jobGets + nodeGets) / minutes).toBeLessThanOrEqual(2);
    // The node summary is still asked now and then, so a driver lost without any other sign is found (rule F).
    expect(nodeGets).toBeGreaterThan(0);
  });

  it('a job over its log budget with no submitter (HTTPMode) falls back to core\'s short poll, so its end is still found within seconds', async () => {
    const w = await world('spent-http');
    await w.runFor(5);
    w.tail.open = false;
    w.tail.spent = true;
    const { jobGets } = await w.runFor(60);
    await w.close();
    expect(w.status()?.jobDeploymentStatus).toBe('Running');
    expect(jobGets).toBeGreaterThanOrEqual(15);
  });

  it('a K8sJobMode job over its log budget stays at <= 2 requests per minute while its submitter runs (the submitter\'s exit is an event)', async () => {
    const w = await world('spent-k8s', 'K8sJobMode');
    await w.runFor(5);
    w.tail.open = false;
    w.tail.spent = true;
    const minutes = 20;
    const { jobGets, nodeGets } = await w.runFor(minutes * 60);
    await w.close();
    expect(w.status()?.jobDeploymentStatus).toBe('Running');
    expect((jobGets + nodeGets) / minutes).toBeLessThanOrEqual(2);
  });

  it('a closed log tail makes the next reconcile check the driver node, and a dead driver still fails the RayJob ~30 s later (rule F)', async () => {
    const w = await world('lost-1');
    await w.runFor(5);
    await emulator.faults.killAgent();
    const ray = createRayClient({ address: emulator.url });
    const head = await ray.getJob('lost-1');
    await eventually('the head node to be DEAD', async () => head.kind === 'ok' && (await ray.nodeTable())(head.value.driver_node_id ?? '').kind === 'dead', 10_000);
    await ray.close();
    w.tail.open = false;
    const { nodeGets } = await w.runFor(90);
    await w.close();
    expect(nodeGets).toBeGreaterThan(1);
    expect(w.status()).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' });
  });
});
