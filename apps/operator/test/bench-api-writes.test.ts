// The bench's request classification and no-op write detection (apps/operator/bench/support/api-writes.ts):
// a wrong classification would make `npm run bench` report the wrong writes per RayJob.
import { describe, expect, it } from 'vitest';
import { analyse, classify } from '../bench/support/api-writes.ts';
import type { ProxiedRequest } from '../bench/support/counting-proxy.ts';

describe('classify', () => {
  it.each([
    ['PUT', '/apis/ray.io/v1/namespaces/default/rayjobs/a/status', 'update', 'rayjobs/status'],
    ['PATCH', '/apis/ray.io/v1/namespaces/default/rayjobs/a?fieldManager=x', 'patch', 'rayjobs'],
    ['POST', '/api/v1/namespaces/default/pods', 'create', 'pods'],
    ['GET', '/api/v1/pods?labelSelector=a%3Db&watch=true&resourceVersion=5', 'watch', 'pods'],
    ['GET', '/apis/batch/v1/jobs?limit=500', 'list', 'jobs'],
    ['GET', '/api/v1/namespaces/default/secrets/s', 'get', 'secrets'],
    ['DELETE', '/apis/ray.io/v1/namespaces/default/rayclusters/c', 'delete', 'rayclusters'],
    ['GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l', 'get', 'leases'],
  ])('%s %s is %s %s', (method, path, verb, resource) => {
    expect(classify({ method, path })).toEqual({ verb, resource });
  });
});

describe('analyse', () => {
  const obj = (rv: string, jobStatus: string) => ({ metadata: { name: 'a', resourceVersion: rv, managedFields: [{ rv }] }, status: { jobStatus } });
  const write = (before: unknown, after: unknown, status = 200): ProxiedRequest => ({
    method: 'PUT', path: '/apis/ray.io/v1/namespaces/default/rayjobs/a/status', status, at: 0, upgrade: false, body: '{}', before, response: JSON.stringify(after),
  });

  it('flags an update that changed nothing but the resourceVersion, and names what the others changed', () => {
    const a = analyse([write(obj('1', 'RUNNING'), obj('2', 'RUNNING')), write(obj('2', 'RUNNING'), obj('3', 'SUCCEEDED')), write(obj('3', 'X'), obj('3', 'X'), 409)]);
    expect(a.writes).toBe(3);
    expect(a.failed).toBe(1);
    expect(a.noOps.map((n) => n.kind)).toEqual(['update rayjobs/status']);
    expect([...a.changes]).toEqual([['update rayjobs/status: (nothing)', 1], ['update rayjobs/status: status.jobStatus', 1]]);
  });

  it('counts the RayJob status writes that record a new Ray status while the deployment stays Running', () => {
    const rj = (deployment: string, jobStatus: string, rv: string) => ({ metadata: { name: 'a', resourceVersion: rv }, status: { jobDeploymentStatus: deployment, jobStatus } });
    const a = analyse([
      write(rj('Initializing', '', '1'), rj('Running', '', '2')),
      write(rj('Running', '', '2'), rj('Running', 'PENDING', '3')),
      write(rj('Running', 'PENDING', '3'), rj('Running', 'RUNNING', '4')),
      write(rj('Running', 'RUNNING', '4'), rj('Running', 'RUNNING', '5')),
      write(rj('Running', 'RUNNING', '5'), rj('Complete', 'SUCCEEDED', '6')),
      write(rj('Running', 'RUNNING', '6'), rj('Running', 'FAILED', '6'), 409),
    ]);
    expect(a.rayStatusWrites).toBe(2);
  });

  it('says which object a failed write was about, with run-specific names generalized', () => {
    const create: ProxiedRequest = { method: 'POST', path: '/api/v1/namespaces/default/services', status: 409, at: 0, upgrade: false, body: JSON.stringify({ metadata: { name: 'k8s-003-head-svc' } }) };
    const put = write(obj('3', 'X'), obj('3', 'X'), 409);
    const a = analyse([create, put], (t) => t.replace(/\bk8s-\d{3}\b/g, '<rayjob>').replace(/^a$/, '<rayjob>'));
    expect([...a.failures]).toEqual([['create services 409 (<rayjob>-head-svc)', 1], ['update rayjobs/status 409 (<rayjob>)', 1]]);
  });

  it('does not flag the patch removing the last finalizer of an object being deleted (the server answers with the deleted object as it was)', () => {
    const deleting = { metadata: { name: 'a', resourceVersion: '7', deletionTimestamp: '2026-12-03T10:00:00Z', finalizers: ['ray.io/rayjob-finalizer'] } };
    const release: ProxiedRequest = {
      method: 'PATCH', path: '/apis/ray.io/v1/namespaces/default/rayjobs/a', status: 200, at: 0, upgrade: false,
      body: JSON.stringify({ metadata: { finalizers: [], resourceVersion: '7' } }), before: deleting, response: JSON.stringify(deleting),
    };
    const a = analyse([release]);
    expect(a.noOps).toEqual([]);
    expect([...a.changes]).toEqual([['patch rayjobs: metadata.finalizers (last removed: deleted)', 1]]);
  });
});
