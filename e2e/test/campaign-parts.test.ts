// The campaign's parts that need no cluster: seeded schedules replay exactly, the judge names each broken rule,
// the limiter bounds concurrency; and the API fault proxy, against a real sandbox API server, answers each
// fault with kube-apiserver's status and body.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer } from '@rayjob/sandbox';
import { describe, expect, it } from 'vitest';
import { judgeSeed, type SeedRecord } from '../src/campaign/judge.ts';
import { planSeed, seededRandom } from '../src/campaign/schedule.ts';
import { startApiFaultProxy } from '../src/drivers/api-fault-proxy.ts';
import { createLimit } from '../src/run/limit.ts';
import { countSubmissions } from '../src/run/checks.ts';
import type { Observation } from '../src/run/observe.ts';

const final = (over: Partial<Observation>): Observation => ({
  atMs: 0, deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', reason: '', message: '', failed: 0, succeeded: 1, jobId: 'j', cluster: 'c',
  clusterExists: true, workersRunning: 0, submitter: 'exited 0', submitterExited: true, progress: 5, progressOf: 5, submitterPods: [], ...over,
});
const seedRecord = (over: Partial<SeedRecord>): SeedRecord => ({
  final: final({}), rayStatuses: ['PENDING', 'RUNNING', 'SUCCEEDED'], submissionsByCluster: new Map([['c', 1]]), agentKilled: false, leaked: [], reachedTerminal: true, ...over,
});

describe('schedules', () => {
  it('the same seed gives the same plan, different seeds differ', () => {
    expect(planSeed(42)).toEqual(planSeed(42));
    const plans = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(planSeed(i))));
    expect(plans.size).toBe(20);
    expect(seededRandom(1)()).toBe(seededRandom(1)());
  });

  it('faults fire inside the job and in step order; operator restarts only when allowed', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      const plan = planSeed(seed, { operatorRestarts: false });
      expect(plan.faults.every((f) => f.atStep >= 1 && f.atStep < plan.shape.steps && f.fault.kind !== 'operator')).toBe(true);
      expect(plan.faults.map((f) => f.atStep)).toEqual([...plan.faults.map((f) => f.atStep)].sort((a, b) => a - b));
    }
  });
});

describe('the judge', () => {
  it.each<[string, Partial<SeedRecord>, string[]]>([
    ['a job Ray reported SUCCEEDED that ends Complete is right', {}, []],
    ['SUCCEEDED but Failed', { final: final({ deploymentStatus: 'Failed', reason: 'SubmissionFailed', message: 'm' }) }, ['Ray reported SUCCEEDED but the RayJob is Failed/SubmissionFailed: m']],
    ['a live job under a Failed RayJob', { rayStatuses: ['RUNNING'], final: final({ deploymentStatus: 'Failed', reason: 'DeadlineExceeded' }) }, ['a live Ray job (RUNNING) under a Failed RayJob (DeadlineExceeded)']],
    ['a RUNNING last seen before the head was lost, its new head without the job, is not live', { rayStatuses: ['RUNNING'], rayJobGone: true, final: final({ deploymentStatus: 'Failed', reason: 'AppFailed' }) }, []],
    ['a frozen RUNNING after the agent died is not live', { rayStatuses: ['RUNNING'], agentKilled: true, final: final({ deploymentStatus: 'Failed' }) }, []],
    ['FAILED but Complete', { rayStatuses: ['RUNNING', 'FAILED'] }, ['Ray reported FAILED but the RayJob is Complete']],
    ['ran twice', { submissionsByCluster: new Map([['c', 2]]) }, ['the Ray job ran 2 times on c']],
    ['never terminal', { reachedTerminal: false, final: final({ deploymentStatus: 'Running', jobStatus: 'RUNNING' }) }, ['the RayJob never became Complete or Failed (last: Running/RUNNING )']],
    ['leaks', { leaked: ['pods/x'] }, ['left behind after the RayJob was deleted: pods/x']],
  ])('%s', (_name, record, problems) => {
    expect(judgeSeed(seedRecord(record))).toEqual(problems);
  });

  it('catches a job submitted again to a replacement head, each head listing it once', () => {
    const counted = seedRecord({ submissionsByCluster: new Map() });
    for (const [headPod, submissions] of [['head-a', 1], ['head-a', 1], ['head-b', 0], ['head-b', 1]] as const) {
      countSubmissions(counted, final({ headPod, submissions }));
    }
    expect(judgeSeed(counted)).toEqual(['the Ray job ran 2 times on c']);
  });
});

describe('limit', () => {
  it('runs at most n tasks at once and all of them', async () => {
    const limit = createLimit(2);
    let active = 0;
    let peak = 0;
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => limit(async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active -= 1;
      return i;
    })));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(2);
  });
});

describe('the API fault proxy', () => {
  it('answers 5xx, 429 with Retry-After, 409 on writes and 410 Gone on watches as kube-apiserver does, and passes the rest through', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'e2e-proxy-'));
    const server = await startApiServer({ dir });
    const proxy = await startApiFaultProxy(server.kubeconfigPath, join(dir, 'proxied'));
    try {
      const get = (path: string, init?: RequestInit) => fetch(`${proxy.url}${path}`, { headers: { authorization: 'Bearer sandbox' }, ...init });
      expect((await get('/api/v1/namespaces')).status).toBe(200);
      proxy.failNext(1, 503);
      const unavailable = await get('/api/v1/namespaces');
      expect([unavailable.status, ((await unavailable.json()) as { reason: string }).reason]).toEqual([503, 'ServiceUnavailable']);
      proxy.failNext(1, 429);
      const throttled = await get('/api/v1/namespaces');
      expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '1']);
      proxy.conflictNext(1);
      const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
      const conflict = await get('/api/v1/namespaces', { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox' } });
      expect([conflict.status, ((await conflict.json()) as { reason: string }).reason]).toEqual([409, 'Conflict']);
      expect((await get('/api/v1/namespaces', { method: 'POST', body, headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox' } })).status).toBe(201);
      proxy.goneNext(1);
      const watch = await get('/api/v1/namespaces?watch=true&resourceVersion=1');
      const event = JSON.parse((await watch.text()).trim());
      expect([event.type, event.object.code, event.object.reason]).toEqual(['ERROR', 410, 'Expired']);
      expect(proxy.injected()).toEqual({ 503: 1, 429: 1, 409: 1, gone: 1 });
    } finally {
      await proxy.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
