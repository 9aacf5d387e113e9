import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@rayjob/kube-runtime';
import type { Job, Pod } from '../../src/kube-objects/types.ts';
import { evictPod } from '../../src/faults/faults.ts';
import { startHarness, waitFor } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness({ jobController: true, backoffBaseMs: 100 }); });
afterAll(async () => { await h.stop(); });

async function createJob(name: string, spec: Partial<Job['spec']>, command: string[]): Promise<Job> {
  const result = await h.client.create<Job>(resources.jobs, {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
    spec: { backoffLimit: 0, ...spec, template: { spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'busybox', command }] } } },
  }, { namespace: 'default' });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const getJob = async (name: string): Promise<Job | undefined> => { const r = await h.client.get<Job>(resources.jobs, { namespace: 'default', name }); return r.ok ? r.value : undefined; };

async function waitForCondition(name: string, type: 'Complete' | 'Failed', timeoutMs = 20_000): Promise<Job> {
  return waitFor(`${name} ${type}`, async () => {
    const job = await getJob(name);
    return job?.status?.conditions?.some((c) => c.type === type && c.status === 'True') ? job : undefined;
  }, timeoutMs);
}

const podsOf = async (job: string): Promise<Pod[]> => {
  const list = await h.client.list<Pod>(resources.pods, { namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${job}` });
  return list.ok ? list.value.items : [];
};

const trueTypes = (job: Job): string[] => (job.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

describe('Job controller against the API server and kubelet', () => {
  it('runs a pod named and labelled like Kubernetes, then SuccessCriteriaMet and Complete', async () => {
    const created = await createJob('ok', {}, ['sh', '-c', 'echo done']);
    const job = await waitForCondition('ok', 'Complete');
    expect(trueTypes(job)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(job.status).toMatchObject({ succeeded: 1, failed: 0, active: 0 });
    expect(job.status?.completionTime).toBeDefined();
    const [pod] = await podsOf('ok');
    expect(pod?.metadata.name).toMatch(/^ok-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pod?.metadata.labels).toMatchObject({ 'job-name': 'ok', 'controller-uid': created.metadata.uid, 'batch.kubernetes.io/job-name': 'ok', 'batch.kubernetes.io/controller-uid': created.metadata.uid });
    expect(pod?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: 'ok', controller: true, uid: created.metadata.uid });
    expect(pod?.metadata.finalizers ?? []).toEqual([]);
    const events = await waitFor('events', async () => {
      const list = await h.client.list<import('../../src/kube-objects/types.ts').KubeObject & { reason: string; message: string; involvedObject: { name: string } }>(resources.events, { namespace: 'default' });
      const mine = list.ok ? list.value.items.filter((e) => e.involvedObject.name === 'ok' || e.involvedObject.name === pod?.metadata.name) : [];
      return mine.some((e) => e.reason === 'Completed') && mine.some((e) => e.reason === 'Started') ? mine : undefined;
    });
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toEqual(expect.arrayContaining([
      `SuccessfulCreate: Created pod: ${pod?.metadata.name}`,
      'Completed: Job completed',
      `Scheduled: Successfully assigned default/${pod?.metadata.name} to sandbox-node`,
      'Started: Started container main',
    ]));
  });

  it('retries failed pods with back-off until backoffLimit, then BackoffLimitExceeded', async () => {
    await createJob('retry', { backoffLimit: 2 }, ['sh', '-c', 'exit 1']);
    const job = await waitForCondition('retry', 'Failed');
    expect(job.status?.failed).toBe(3);
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(trueTypes(job)).toEqual(['FailureTarget', 'Failed']);
    expect(await podsOf('retry')).toHaveLength(3);
  });

  it('podFailurePolicy FailJob on an exit code fails the Job with Kubernetes’ message', async () => {
    await createJob('exit42', { backoffLimit: 5, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] } }, ['sh', '-c', 'exit 42']);
    const job = await waitForCondition('exit42', 'Failed');
    const [pod] = await podsOf('exit42');
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      reason: 'PodFailurePolicy', message: `Container main for pod default/${pod?.metadata.name} failed with exit code 42 matching FailJob rule at index 0`,
    });
  });

  it('podFailurePolicy Ignore on DisruptionTarget: an evicted pod is replaced without counting', async () => {
    await createJob('evicted', { podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } }, ['sh', '-c', 'sleep 1; echo fine']);
    const first = await waitFor('first pod running', async () => (await podsOf('evicted')).find((p) => p.status?.phase === 'Running'));
    expect(await evictPod(h.client, 'default', first.metadata.name ?? '')).toEqual({ ok: true });
    const job = await waitForCondition('evicted', 'Complete');
    expect(job.status).toMatchObject({ failed: 0, succeeded: 1 });
  });

  it('a pod deleted while running counts as failed (no podFailurePolicy)', async () => {
    await createJob('deleted', { backoffLimit: 0 }, ['sleep', '30']);
    const pod = await waitFor('pod running', async () => (await podsOf('deleted')).find((p) => p.status?.phase === 'Running'));
    await h.client.delete(resources.pods, { namespace: 'default', name: pod.metadata.name ?? '' });
    const job = await waitForCondition('deleted', 'Failed');
    expect(job.status?.failed).toBe(1);
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')?.reason).toBe('BackoffLimitExceeded');
  });

  it('activeDeadlineSeconds: DeadlineExceeded and the running pod is stopped', async () => {
    await createJob('deadline', { activeDeadlineSeconds: 1, backoffLimit: 6 }, ['sleep', '30']);
    const job = await waitForCondition('deadline', 'Failed');
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(job.status?.active).toBe(0);
  });

  it('deleting a Job lets its pods go (tracking finalizers of orphans are removed)', async () => {
    await createJob('doomed', {}, ['sleep', '30']);
    const pod = await waitFor('pod running', async () => (await podsOf('doomed')).find((p) => p.status?.phase === 'Running'));
    await h.client.delete(resources.jobs, { namespace: 'default', name: 'doomed' }, { propagationPolicy: 'Background' });
    await waitFor('pod gone', async () => ((await h.client.get(resources.pods, { namespace: 'default', name: pod.metadata.name ?? '' })).ok ? undefined : true));
  });

  it('ttlSecondsAfterFinished deletes the finished Job and its pods', async () => {
    await createJob('ttl', { ttlSecondsAfterFinished: 1 }, ['true']);
    // The ttl counts from the Complete condition's lastTransitionTime, which has seconds precision (as in Kubernetes),
    // so the Job may go within a fraction of a second of finishing: too soon for a poll to see it Complete. Its
    // Completed event (events outlive the Job) says it finished before it was deleted.
    await waitFor('job deleted', async () => ((await getJob('ttl')) === undefined ? true : undefined));
    await waitFor('pods deleted', async () => ((await podsOf('ttl')).length === 0 ? true : undefined));
    await waitFor('the Completed event of the deleted Job', async () => {
      const list = await h.client.list<{ metadata: Job['metadata']; reason?: string; involvedObject?: { kind?: string; name?: string } }>(resources.events, { namespace: 'default' });
      return list.ok && list.value.items.some((e) => e.involvedObject?.kind === 'Job' && e.involvedObject.name === 'ttl' && e.reason === 'Completed') ? true : undefined;
    });
  });
});
