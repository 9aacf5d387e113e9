// The project's generated ray.io CRDs (packages/core/crds) installed as-is: RayJobs are served, printed
// with their columns, defaulted, and validated by their CEL rules with kube-apiserver's messages.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startHarness, type Harness } from '../harness.ts';

const crdDir = join(import.meta.dirname, '..', '..', '..', 'core', 'crds');
const crds = ['ray.io_rayjobs.yaml', 'ray.io_rayclusters.yaml'].map((f) => join(crdDir, f));

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ crds });
});
afterAll(async () => {
  await h.stop();
});

const rayJob = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name },
  spec: {
    entrypoint: 'python -c "print(1)"',
    rayClusterSpec: {
      headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.46.0' }] } } },
    },
    ...spec,
  },
});

describe('ray.io CRDs from packages/core/crds', () => {
  it('serves RayJob and RayCluster with their printer columns', async () => {
    const created = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob('demo'));
    expect(created.status).toBe(201);
    const out = await h.kubectl(['get', 'rayjobs']);
    expect(out.stdout.split('\n')[0]).toMatch(/^NAME\s+JOB STATUS\s+DEPLOYMENT STATUS\s+RAY CLUSTER NAME\s+START TIME\s+END TIME\s+AGE$/);
    expect(out.stdout).toMatch(/\ndemo\s+\d+s/);
    expect((await h.kubectl(['get', 'rayclusters'])).stderr).toMatch(/^No resources found/);
  });

  it('rejects changing managedBy with the real message (transition rule)', async () => {
    const created = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob('managed', { managedBy: 'kueue.x-k8s.io/multikueue' }));
    expect(created.status).toBe(201);
    const res = await http(h.server, 'PATCH', '/apis/ray.io/v1/namespaces/default/rayjobs/managed', { spec: { managedBy: 'ray.io/kuberay-operator' } }, 'application/merge-patch+json');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('RayJob.ray.io "managed" is invalid: spec.managedBy: Invalid value: "string": the managedBy field is immutable');
    expect(res.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.managedBy' });
  });

  it('rejects an unknown managedBy value on create', async () => {
    const res = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob('bad-managed', { managedBy: 'someone-else' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('spec.managedBy: Invalid value: "string": the managedBy field value must be one of');
  });

  it('keeps status out of the main endpoint and accepts it on /status', async () => {
    const got = (await http(h.server, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/demo')).body;
    const main = await http(h.server, 'PUT', '/apis/ray.io/v1/namespaces/default/rayjobs/demo', { ...got, status: { jobStatus: 'RUNNING' } });
    expect(main.body.status?.jobStatus).toBeUndefined();
    const status = await http(h.server, 'PUT', '/apis/ray.io/v1/namespaces/default/rayjobs/demo/status', { ...main.body, status: { jobStatus: 'RUNNING', jobDeploymentStatus: 'Running' } });
    expect(status.status).toBe(200);
    expect(status.body.status).toMatchObject({ jobStatus: 'RUNNING', jobDeploymentStatus: 'Running' });
    expect((await h.kubectl(['get', 'rayjob', 'demo'])).stdout).toMatch(/\ndemo\s+RUNNING\s+Running\s/);
  });

  it('validates inside pod templates: a misspelled field is rejected under strict field validation, pruned otherwise', async () => {
    const typo = (name: string) => {
      const job = rayJob(name);
      const container = job.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0] as Record<string, unknown>;
      container.imagePullPolicyy = 'Always';
      return job;
    };
    const strict = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs?fieldValidation=Strict', typo('typo-strict'));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'RayJob in version "v1" cannot be handled as a RayJob: strict decoding error: unknown field "spec.rayClusterSpec.headGroupSpec.template.spec.containers[0].imagePullPolicyy"',
    );
    const lax = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', typo('typo-lax'));
    expect(lax.status).toBe(201);
    expect(lax.body.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0]).toEqual({ name: 'ray-head', image: 'rayproject/ray:2.46.0' });
  });

  it('kubectl (strict by default) refuses a misspelled submitter pod template field', async () => {
    const job = rayJob('typo-kubectl', { submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'submitter', image: 'x', comand: ['ray'] }] } } });
    const out = await h.kubectl(['create', '-f', '-'], JSON.stringify(job));
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('unknown field "spec.submitterPodTemplate.spec.containers[0].comand"');
  });

  it('checks types inside pod templates (a port given as a word)', async () => {
    const job = rayJob('bad-port');
    (job.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0] as Record<string, unknown>).ports = [{ containerPort: 'http' }];
    const res = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', job);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('spec.rayClusterSpec.headGroupSpec.template.spec.containers[0].ports[0].containerPort in body must be of type integer: "string"');
  });

  it('drops nulls where the schema is not nullable, or puts the default there (a template from `kubectl create --dry-run -o yaml`)', async () => {
    const job = rayJob('nulls');
    const template = job.spec.rayClusterSpec.headGroupSpec.template as Record<string, unknown>;
    template.metadata = { creationTimestamp: null, labels: { a: 'b' } };
    (job.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0] as Record<string, unknown>).ports = [{ containerPort: 8265, protocol: null }];
    const res = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs?fieldValidation=Strict', job);
    expect(res.status).toBe(201);
    const stored = res.body.spec.rayClusterSpec.headGroupSpec.template;
    expect(stored.metadata).toEqual({ labels: { a: 'b' } });
    expect(stored.spec.containers[0].ports).toEqual([{ containerPort: 8265, protocol: 'TCP' }]);
  });

  it('rejects repeated keys of a list-type map (two containers with one name; one port twice, the second defaulted to TCP)', async () => {
    const job = rayJob('dupes');
    const spec = job.spec.rayClusterSpec.headGroupSpec.template.spec as Record<string, unknown>;
    spec.containers = [
      { name: 'ray-head', image: 'a', ports: [{ containerPort: 8265, protocol: 'TCP' }, { containerPort: 8265 }] },
      { name: 'ray-head', image: 'b' },
    ];
    const res = await http(h.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', job);
    expect(res.status).toBe(422);
    const template = 'spec.rayClusterSpec.headGroupSpec.template.spec';
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: map[string]interface {}{"name":"ray-head"}', field: `${template}.containers[1]` },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: map[string]interface {}{"containerPort":8265, "protocol":"TCP"}', field: `${template}.containers[0].ports[1]` },
    ]);
  });

  it('deleting a CRD stops serving its kind and removes its objects', async () => {
    const h2 = await startHarness({ crds: [crds[1] as string] });
    try {
      const rc = { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'rc' }, spec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'h', image: 'x' }] } } } } };
      expect((await http(h2.server, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', rc)).status).toBe(201);
      expect((await http(h2.server, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/rayclusters.ray.io')).status).toBe(200);
      expect((await http(h2.server, 'GET', '/apis/ray.io/v1/namespaces/default/rayclusters/rc')).status).toBe(404);
      expect(h2.server.store.count('ray.io/rayclusters')).toBe(0);
    } finally {
      await h2.stop();
    }
  });
});
