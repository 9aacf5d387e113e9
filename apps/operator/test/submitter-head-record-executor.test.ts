// The executor's side of the submitter's head record (campaign seeds 152, 239, 827): create the submitter-state
// ConfigMap with the head's IP, or merge the key into ours, never overwrite a recorded head, and never create the
// submitter Job in a pass whose record failed (a Job without it would submit again to a replacement head).
import { buildSubmitterStateConfigMap, submitterHeadRecordOf, type Decision, type K8sJob, type RayJob } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import type { KubeClient, KubeResult } from '@rayjob/kube-runtime';
import { apiFailure, apiOk, executeDeps, executeOnce } from './support/rayjob-execute.ts';

const rayJob = { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rj', namespace: 'default', uid: 'uid-rj', resourceVersion: '7' }, spec: {} } as RayJob;
const record = submitterHeadRecordOf(rayJob, 'rj-abcde', 'rj-fghij');
const configMap = buildSubmitterStateConfigMap(rayJob, record, '10.0.0.7');
const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'rj', namespace: 'default' } } as K8sJob;
const decision: Decision = {
  status: { jobDeploymentStatus: 'Initializing' },
  statusChanged: false,
  writeStatusFirst: false,
  actions: [{ type: 'recordSubmitterHead', configMap, key: record.key, headIP: '10.0.0.7' }, { type: 'createSubmitterJob', job, recreated: false }],
  requeueAfterSeconds: 3,
  memory: {},
  notes: [],
  conditionEvents: [],
};

const fail = (code: number, reason: string): KubeResult<never> => apiFailure(code, reason);
const ok = apiOk;

interface Fake { cmCreate: KubeResult<unknown>; owner?: string; data?: Record<string, string>; patch?: KubeResult<unknown> }

function fakeWriter(f: Fake) {
  const calls: string[] = [];
  const client = {
    create: async (_type: unknown, obj: { kind?: string }) => (calls.push(`create ${obj.kind}`), obj.kind === 'ConfigMap' ? f.cmCreate : ok(obj)),
    get: async () => (calls.push('read'), ok({ metadata: { name: record.configMap, resourceVersion: '41', ownerReferences: f.owner ? [{ uid: f.owner, controller: true }] : [] }, data: f.data })),
    patch: async (_type: unknown, _ref: unknown, patch: object) => (calls.push(`patch ${JSON.stringify(patch)}`), f.patch ?? ok({ metadata: {} })),
    replaceStatus: async (_type: unknown, j: RayJob) => (calls.push('status'), ok(j)),
  } as unknown as KubeClient;
  return { client, calls };
}

const conflict = fail(409, 'AlreadyExists');
const merged = `patch {"metadata":{"resourceVersion":"41"},"data":{"${record.key}":"10.0.0.7"}}`;

describe('the executor records the submitter\'s head before creating its Job', () => {
  it.each([
    { name: 'created with the key: then the Job', f: { cmCreate: ok(configMap) }, calls: ['create ConfigMap', 'create Job'], outcome: 'done', recorded: true },
    {
      name: 'ours without the key (the attach-only mark of SidecarMode, another attempt): merged in at its resourceVersion, then the Job',
      f: { cmCreate: conflict, owner: 'uid-rj', data: { other: 'true' } }, calls: ['create ConfigMap', 'read', merged, 'create Job'], outcome: 'done', recorded: true,
    },
    {
      name: 'ours with the key already (an operator restart between record and Job, a Job recreated): never overwritten, then the Job',
      f: { cmCreate: conflict, owner: 'uid-rj', data: { [record.key]: '10.0.0.1' } }, calls: ['create ConfigMap', 'read', 'create Job'], outcome: 'done', recorded: true,
    },
    { name: '429 on create: no Job this pass', f: { cmCreate: fail(429, 'TooManyRequests') }, calls: ['create ConfigMap'], outcome: 'error', recorded: false },
    { name: '503 on create: no Job this pass', f: { cmCreate: fail(503, 'ServiceUnavailable') }, calls: ['create ConfigMap'], outcome: 'error', recorded: false },
    { name: 'someone else\'s ConfigMap of that name: an error, no Job', f: { cmCreate: conflict, owner: 'uid-other' }, calls: ['create ConfigMap', 'read'], outcome: 'error', recorded: false },
    {
      name: 'the merge lost a race (409 on the resourceVersion): a conflict, no Job',
      f: { cmCreate: conflict, owner: 'uid-rj', patch: fail(409, 'Conflict') }, calls: ['create ConfigMap', 'read', merged], outcome: 'conflict', recorded: false,
    },
    {
      name: 'the merge fails (503): an error, no Job',
      f: { cmCreate: conflict, owner: 'uid-rj', patch: fail(503, 'ServiceUnavailable') }, calls: ['create ConfigMap', 'read', merged], outcome: 'error', recorded: false,
    },
  ])('$name', async ({ f, calls, outcome, recorded }) => {
    const fake = fakeWriter(f as Fake);
    const got = await executeOnce(rayJob, decision, executeDeps(fake.client));
    expect(got.kind).toBe(outcome);
    expect(fake.calls).toEqual(calls);
    expect(got.memory.submitterHeadRecorded).toEqual(recorded ? { key: record.key } : undefined);
  });
});
