// The status-correctness cases the operator can see on the sandbox (reference/status-correctness.md):
// a submitter's death is not evidence about a RUNNING job (C1), a deleted submitter Job is recreated and
// re-attaches (C19), an operator restart mid-job reports the real result (C20), and activeDeadlineSeconds fails
// the RayJob and stops the Ray job (C15, addition C).
import { attachOnlyMarkKey, messages, submitterStateKey } from '@rayjob/core';
import { createRayClient } from '@rayjob/ray-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRayJob, getRayJob, listEvents, rayJobManifest, startEnv, waitForDeployment, type Env } from './support/env.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});
// Each case's cluster goes when it is done (garbage collection follows the RayJob), so heads of finished cases
// do not load the machine for the next ones.
afterEach(async () => {
  const list = (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs')).body?.items ?? [];
  for (const j of list) await api(env.url, 'DELETE', `/apis/ray.io/v1/namespaces/default/rayjobs/${j.metadata.name}`);
});

const untilJobStatus = (name: string, want: string, ms = 75_000): Promise<Json> =>
  eventually(`RayJob ${name} jobStatus ${want}`, async () => {
    const j = await getRayJob(env.url, name);
    return j?.status?.jobStatus === want ? j : undefined;
  }, ms);

const submitterPods = async (name: string): Promise<Json[]> =>
  (await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=job-name%3D${name}`)).body.items;

describe('status correctness', { timeout: 150_000 }, () => {
  it('C1: the submitter pod deleted mid-job (backoffLimit 0) -> stays Running -> Complete/SUCCEEDED', async () => {
    await createRayJob(env.url, rayJobManifest('c1', { entrypoint: 'sleep 8; echo finished', submitterConfig: { backoffLimit: 0 } }));
    await untilJobStatus('c1', 'RUNNING');
    const [pod] = await submitterPods('c1');
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${pod.metadata.name}`);
    await eventually('the submitter Job to fail', async () => {
      const job = (await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/c1')).body;
      return job.status?.conditions?.some((c: Json) => c.type === 'Failed' && c.status === 'True');
    });
    // KubeRay turns this into Failed/SubmissionFailed (#2314); here the live job keeps the RayJob Running.
    const still = await getRayJob(env.url, 'c1');
    expect(still.status).toMatchObject({ jobDeploymentStatus: 'Running', jobStatus: 'RUNNING' });
    const done = await waitForDeployment(env.url, 'c1', 'Complete', 40_000);
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED', failed: 0, succeeded: 1 });
  });

  it('C19: the submitter Job deleted mid-run is recreated, re-attaches (one Ray job), and the RayJob completes', async () => {
    await createRayJob(env.url, rayJobManifest('c19', { entrypoint: 'sleep 8; echo finished' }));
    const running = await untilJobStatus('c19', 'RUNNING');
    const first = (await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/c19')).body;
    await api(env.url, 'DELETE', '/apis/batch/v1/namespaces/default/jobs/c19', { propagationPolicy: 'Background' });
    const second = await eventually('a new submitter Job', async () => {
      const job = (await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/c19')).body;
      return job.metadata?.uid && job.metadata.uid !== first.metadata.uid ? job : undefined;
    });
    expect(second.metadata.ownerReferences[0].uid).toBe(running.metadata.uid);
    const done = await waitForDeployment(env.url, 'c19', 'Complete', 40_000);
    expect(done.status.jobStatus).toBe('SUCCEEDED');
    const notes = (await listEvents(env.url, 'c19')).map((e) => e.note);
    expect(notes.some((n: string) => n.startsWith('Recreated the missing submitter Kubernetes Job default/c19'))).toBe(true);
    // Still one Ray job on the cluster: the new submitter attached instead of submitting again.
    const lookup = env.sandbox.node?.lookup;
    const ray = createRayClient({ address: `http://${done.status.dashboardURL}`, ...(lookup && { lookup }) });
    const jobs = await ray.listJobs();
    await ray.close();
    expect(jobs.kind === 'ok' && jobs.value.filter((j) => j.submission_id === done.status.jobId)).toHaveLength(1);
  });

  it('C20: the operator stopped mid-job while the job succeeds -> after restart Complete/SUCCEEDED', async () => {
    await createRayJob(env.url, rayJobManifest('c20', { entrypoint: 'sleep 5; echo finished' }));
    await untilJobStatus('c20', 'RUNNING');
    await env.operator.stop();
    await eventually('the submitter Job to complete while the operator is down', async () => {
      const job = (await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/c20')).body;
      return job.status?.conditions?.some((c: Json) => c.type === 'Complete' && c.status === 'True');
    }, 40_000);
    expect((await getRayJob(env.url, 'c20')).status.jobDeploymentStatus).toBe('Running');
    const restarted = await env.startOperator();
    env.operator = restarted.operator;
    env.rayjob = restarted.rayjob;
    const done = await waitForDeployment(env.url, 'c20', 'Complete', 30_000);
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED', succeeded: 1, failed: 0 });
  });

  it('C15: activeDeadlineSeconds passes -> Failed/DeadlineExceeded, and the Ray job is stopped', async () => {
    // 45 s: long enough for the job to be running on a loaded 2-core machine, so there is a live job to stop.
    await createRayJob(env.url, rayJobManifest('c15', { entrypoint: 'sleep 120', activeDeadlineSeconds: 45 }));
    const failed = await waitForDeployment(env.url, 'c15', 'Failed', 90_000);
    expect(failed.status.reason).toBe('DeadlineExceeded');
    expect(failed.status.message).toMatch(/^The RayJob has passed the activeDeadlineSeconds\. StartTime: .* ActiveDeadlineSeconds: 45$/);
    // Addition C: the Ray job does not run on under a terminal RayJob; its final status is recorded.
    const stopped = await untilJobStatus('c15', 'STOPPED', 30_000);
    expect(stopped.status.jobDeploymentStatus).toBe('Failed');
  });
  it('C6: the head pod force-deleted mid-job (K8sJobMode) -> Failed/AppFailed: the job was lost with its head', async () => {
    await createRayJob(env.url, rayJobManifest('c6', { entrypoint: 'sleep 120', submitterConfig: { backoffLimit: 0 } }));
    const running = await untilJobStatus('c6', 'RUNNING');
    const head = env.standIn.heads.get(running.status.rayClusterName);
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${head}?gracePeriodSeconds=0`);
    // A new head (K8sJobMode heads are recreated) knows no jobs. Which words the verdict carries depends on what
    // the operator saw first: the submitter's exit (KubeRay's rule 3 message) or the dashboard's 404 for a job it
    // had seen RUNNING (core's addition H message). Either way: AppFailed within seconds, never a resubmission.
    const failed = await waitForDeployment(env.url, 'c6', 'Failed', 75_000);
    expect(failed.status.reason).toBe('AppFailed');
    expect([messages.jobNotFoundAfterSubmitter, messages.headLost(running.status.jobId, 'RUNNING')]).toContain(failed.status.message);
  });

  it('issue 8 defect 4: the head replaced, then the first submitter pod evicted -> the Job controller\'s retry only attaches (exit 6), nothing is submitted to the new head, head-lost verdict', async () => {
    await createRayJob(env.url, rayJobManifest('h4', { entrypoint: 'sleep 120' }));
    const running = await untilJobStatus('h4', 'RUNNING');
    const { jobId, rayClusterName } = running.status;
    // The mark the first pod's retry will read: written once Ray reported the job.
    const mark = await eventually('the attach-only mark', async () => {
      const cm = (await api(env.url, 'GET', '/api/v1/namespaces/default/configmaps/h4-submitter-state')).body;
      return cm?.data?.[attachOnlyMarkKey(rayClusterName, jobId)] === 'true' ? cm : undefined;
    });
    expect(mark.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'RayJob', uid: running.metadata.uid, controller: true })]);
    const [first] = await submitterPods('h4');
    expect(first.spec.containers[0].env).toContainEqual({ name: 'RAYJOB_SUBMITTER_ATTACH_ONLY', valueFrom: { configMapKeyRef: { name: 'h4-submitter-state', key: attachOnlyMarkKey(rayClusterName, jobId), optional: true } } });
    // A fresh head that knows no jobs, then the first pod evicted: an ignored failure, so the Job controller retries it.
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${env.standIn.heads.get(rayClusterName)}?gracePeriodSeconds=0`);
    const evicted = await api(env.url, 'POST', `/api/v1/namespaces/default/pods/${first.metadata.name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: first.metadata.name, namespace: 'default' } });
    expect(evicted.status).toBeLessThan(300);
    const retry = await eventually('the retried submitter pod to exit', async () => {
      const pod = (await submitterPods('h4')).find((p) => p.metadata.uid !== first.metadata.uid);
      return pod?.status?.containerStatuses?.[0]?.state?.terminated ? pod : undefined;
    }, 90_000);
    expect(retry.status.containerStatuses[0].state.terminated.exitCode).toBe(6);
    const failed = await waitForDeployment(env.url, 'h4', 'Failed', 75_000);
    expect(failed.status.reason).toBe('AppFailed');
    // The new head never got the job: the retry did not submit it again.
    const lookup = env.sandbox.node?.lookup;
    const ray = createRayClient({ address: `http://${failed.status.dashboardURL}`, ...(lookup && { lookup }) });
    const jobs = await ray.listJobs();
    await ray.close();
    expect(jobs.kind).toBe('ok');
    expect(jobs.kind === 'ok' && jobs.value.filter((j) => j.submission_id === jobId)).toEqual([]);
  });

  // Campaign seeds 152, 239 (the pod retried by the Job controller) and 827 (the Job recreated by the operator):
  // the first submitter submitted, then the head and the submitter were deleted before the operator recorded any
  // Ray status (here: the operator is down), so attach-only cannot help. The submitter that comes next finds a
  // head at another IP than the recorded one and does not submit (exit 6); the RayJob fails (rule 2).
  it.each([
    { route: 'the submitter pod deleted (the Job controller retries it)', name: 'h5', deleteSubmitter: async (name: string) => {
      const [pod] = await submitterPods(name);
      await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${pod.metadata.name}`);
      return pod.metadata.uid as string;
    } },
    { route: 'the submitter Job deleted (the operator recreates it)', name: 'h6', deleteSubmitter: async (name: string) => {
      const [pod] = await submitterPods(name);
      await api(env.url, 'DELETE', `/apis/batch/v1/namespaces/default/jobs/${name}`, { propagationPolicy: 'Background' });
      return pod.metadata.uid as string;
    } },
  ])('seeds 152/239/827: head and submitter lost before any status was recorded, $route -> the next submitter exits 6, the new head never gets the job, Failed', async ({ name, deleteSubmitter }) => {
    await createRayJob(env.url, rayJobManifest(name, { entrypoint: 'sleep 120' }));
    // The operator goes down as soon as the first submitter Job exists, before it can see the job on Ray.
    await eventually('the first submitter Job', async () => (await api(env.url, 'GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).status === 200, 60_000, 50);
    await env.operator.stop();
    let down = true;
    try {
      const before = await getRayJob(env.url, name);
      const { jobId, rayClusterName, dashboardURL } = before.status;
      expect(before.status.jobStatus ?? '', 'the operator recorded no Ray status before it stopped').toBe('');
      const headPod = (await api(env.url, 'GET', `/api/v1/namespaces/default/pods/${env.standIn.heads.get(rayClusterName)}`)).body;
      const state = (await api(env.url, 'GET', `/api/v1/namespaces/default/configmaps/${name}-submitter-state`)).body;
      expect(state.data?.[submitterStateKey('expectedHeadIp', rayClusterName, jobId)]).toBe(headPod.status.podIP);
      const lookup = env.sandbox.node?.lookup;
      const jobsOnHead = async () => {
        const ray = createRayClient({ address: `http://${dashboardURL}`, ...(lookup && { lookup }) });
        const jobs = await ray.listJobs();
        await ray.close();
        return jobs.kind === 'ok' ? jobs.value.filter((j) => j.submission_id === jobId) : undefined;
      };
      await eventually('the first submitter to submit to the first head', async () => ((await jobsOnHead())?.length ? true : undefined), 90_000);
      // Within a second or two: the head force-deleted (KubeRay recreates it, empty), then the submitter.
      await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${headPod.metadata.name}?gracePeriodSeconds=0`);
      const firstPod = await deleteSubmitter(name);
      const restarted = await env.startOperator();
      env.operator = restarted.operator;
      env.rayjob = restarted.rayjob;
      down = false;
      const next = await eventually('the next submitter pod to exit', async () => {
        const pod = (await submitterPods(name)).find((p) => p.metadata.uid !== firstPod);
        return pod?.status?.containerStatuses?.[0]?.state?.terminated ? pod : undefined;
      }, 90_000);
      const terminated = next.status.containerStatuses[0].state.terminated;
      expect(terminated.exitCode).toBe(6);
      expect(terminated.message).toContain(`not at ${headPod.status.podIP} where this attempt's first submitter started`);
      const failed = await waitForDeployment(env.url, name, 'Failed', 75_000);
      expect(failed.status.reason).toBe('SubmissionFailed');
      expect(failed.status.message).toContain('exit code 6');
      // The replacement head never got the job: it ran once, on the lost head.
      expect(await jobsOnHead()).toEqual([]);
    } finally {
      if (down) {
        const restarted = await env.startOperator();
        env.operator = restarted.operator;
        env.rayjob = restarted.rayjob;
      }
    }
  });
});
