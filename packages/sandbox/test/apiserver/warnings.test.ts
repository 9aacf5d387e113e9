// Warning headers as kube-apiserver sends them: unknown fields are dropped from built-in kinds (by their k8s.io
// type) and custom resources (by their schema), and reported per fieldValidation — Warn (the default) as one
// `299 - "unknown field \"path\""` header each, Strict as a 400, Ignore not at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startHarness, type Harness } from '../harness.ts';

const widgets = new URL('../fixtures/widgets-crd.yaml', import.meta.url).pathname;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ crds: [widgets] });
});
afterAll(async () => {
  await h.stop();
});

const job = (name: string) => ({
  metadata: { name },
  spec: { bogusSpec: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', imagePullPolcy: 'Always' }] } } },
});

describe('unknown fields', () => {
  it('default (Warn): one Warning header per dropped field, with the path as the real server writes it', async () => {
    const res = await http(h.server, 'POST', '/apis/batch/v1/namespaces/default/jobs', job('warned'));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec.bogusSpec\\"", 299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolcy\\""');
    expect(res.body.spec.bogusSpec).toBeUndefined();
    expect(res.body.spec.template.spec.containers[0].imagePullPolcy).toBeUndefined();
  });

  it('Strict: 400 with the strict decoding error; Ignore: dropped silently', async () => {
    const strict = await http(h.server, 'POST', '/apis/batch/v1/namespaces/default/jobs?fieldValidation=Strict', job('strict'));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.bogusSpec", unknown field "spec.template.spec.containers[0].imagePullPolcy"');
    const ignored = await http(h.server, 'POST', '/apis/batch/v1/namespaces/default/jobs?fieldValidation=Ignore', job('ignored'));
    expect(ignored.status).toBe(201);
    expect(ignored.headers.get('warning')).toBeNull();
  });

  it('fields of embedded structs and maps of objects are known (no false warnings)', async () => {
    const pod = {
      metadata: { name: 'known', labels: { a: 'b' } },
      spec: {
        containers: [{ name: 'c', image: 'busybox', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }], resources: { limits: { cpu: '1' } },
          readinessProbe: { exec: { command: ['true'] } } }],
        volumes: [{ name: 'v', configMap: { name: 'cm' } }],
      },
    };
    const res = await http(h.server, 'POST', '/api/v1/namespaces/default/pods', pod);
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
  });

  it('kubectl --validate=warn prints the server\'s warnings; custom resources warn by their schema', async () => {
    const out = await h.kubectl(['create', '--validate=warn', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-warn}\ndata: {a: "1"}\nbogus: 1\n');
    expect(out.stderr).toContain('Warning: unknown field "bogus"');
    const cr = await http(h.server, 'POST', '/apis/test.rayjob.dev/v1/namespaces/default/widgets', { apiVersion: 'test.rayjob.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, shiny: true } });
    expect(cr.status).toBe(201);
    expect(cr.headers.get('warning')).toBe('299 - "unknown field \\"spec.shiny\\""');
  });
});
