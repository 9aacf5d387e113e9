// kubectl (a real child process) against the sandbox: describe with events from both Event APIs, logs,
// and CRDs end to end (printer columns, defaults, schema and CEL validation messages).
import * as k8s from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { microNow } from '../../src/index.ts';
import { http, makePod as makeTestPod, useHarness, tableHeader, widgetsCrd } from '../harness.ts';

const h = useHarness();

const makePod = (name: string) => makeTestPod(h, name);
const header = tableHeader;

describe('kubectl describe, logs and events', () => {
  it('describe pod shows events recorded through events.k8s.io/v1 and core/v1', async () => {
    await makePod('described');
    const pod = await h.core.readNamespacedPod({ name: 'described', namespace: 'default' });
    const ref = { apiVersion: 'v1', kind: 'Pod', name: 'described', namespace: 'default', uid: pod.metadata?.uid };
    const events = h.kc.makeApiClient(k8s.EventsV1Api);
    await events.createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { generateName: 'described-' }, eventTime: microNow() as unknown as Date, reportingController: 'rayjob.dev/operator', reportingInstance: 'op-1', action: 'Submit', reason: 'ViaEventsV1', note: 'recorded through events.k8s.io', type: 'Normal', regarding: ref },
    });
    await h.core.createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { generateName: 'described-' }, involvedObject: ref, reason: 'ViaCoreV1', message: 'recorded through core v1', type: 'Warning', source: { component: 'test' }, firstTimestamp: new Date(), lastTimestamp: new Date(), count: 1 },
    });
    const out = await h.kubectl(['describe', 'pod', 'described']);
    expect(out.stdout).toMatch(/Events:/);
    expect(out.stdout).toMatch(/Normal\s+ViaEventsV1\s+.*recorded through events.k8s.io/);
    expect(out.stdout).toMatch(/Warning\s+ViaCoreV1\s+.*recorded through core v1/);
    const byRegarding = await http(h.server, 'GET', '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Ddescribed');
    expect(byRegarding.body.items.map((e: { note: string }) => e.note).sort()).toEqual(['recorded through core v1', 'recorded through events.k8s.io']);
    const byInvolved = await http(h.server, 'GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Ddescribed,involvedObject.kind%3DPod');
    expect(byInvolved.body.items).toHaveLength(2);
    const list = await h.kubectl(['get', 'events.events.k8s.io', '-o', 'json']);
    expect(JSON.parse(list.stdout).items.map((e: { reason: string }) => e.reason)).toEqual(expect.arrayContaining(['ViaEventsV1', 'ViaCoreV1']));
  });

  it('kubectl logs asks the pod\'s kubelet: a pod not on a node yet is waiting to start', async () => {
    await makePod('logger');
    const out = await h.kubectl(['logs', 'logger']);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('container "logger" in pod "logger" is waiting to start: ContainerCreating');
    // Logs and exec of a running pod go through the kubelet's endpoint: see test/kubelet/kubelet-endpoint.test.ts.
  });
});

describe('kubectl with a CRD', () => {
  beforeAll(async () => {
    const out = await h.kubectl(['apply', '-f', widgetsCrd]);
    expect(out.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/widgets.test.rayjob.dev created');
    const wait = await h.kubectl(['wait', '--for', 'condition=established', 'crd/widgets.test.rayjob.dev', '--timeout=5s']);
    expect(wait.stdout).toContain('condition met');
  });

  const widget = (name: string, spec: string) => `apiVersion: test.rayjob.dev/v1\nkind: Widget\nmetadata: {name: ${name}}\nspec: ${spec}\n`;

  it('shows additionalPrinterColumns (JSONPath incl. filters) and applies schema defaults', async () => {
    await h.kubectl(['apply', '-f', '-'], widget('w1', '{size: 3}'));
    await h.kubectl(['patch', 'widget', 'w1', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}']);
    const out = await h.kubectl(['get', 'wg']);
    expect(header(out.stdout)).toEqual(['NAME', 'SIZE', 'COLOR', 'PHASE', 'READY', 'AGE']);
    expect(out.stdout.split('\n')[1]).toMatch(/^w1\s+3\s+red\s+Running\s+True\s+\d+s$/);
    expect((await h.kubectl(['get', 'all'])).stdout).toContain('widget.test.rayjob.dev/w1');
  });

  it('keeps fields under x-kubernetes-preserve-unknown-fields', async () => {
    await h.kubectl(['apply', '-f', '-'], widget('open', '{size: 2, extra: {anything: {nested: [1, 2]}}}'));
    const got = JSON.parse((await h.kubectl(['get', 'widget', 'open', '-o', 'json'])).stdout);
    expect(got.spec).toEqual({ size: 2, color: 'red', extra: { anything: { nested: [1, 2] } } });
  });

  it.each([
    ['a schema violation (minimum, enum)', '{size: 0, color: pink}', [
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      'spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"',
    ]],
    ['a required field', '{color: red}', ['spec.size: Required value']],
    ['too few items (minItems)', '{size: 1, tags: []}', ['spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items']],
    ['a wrong type', '{size: "big"}', ['spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"']],
    ['a CEL rule', '{size: 9, maxSize: 5}', ['spec: Invalid value: "object": size must not exceed maxSize']],
    ['an unknown field (kubectl asks for strict field validation)', '{size: 1, bogus: 1}', ['strict decoding error: unknown field "spec.bogus"']],
  ])('rejects %s with the real message', async (_what, spec, messages) => {
    const out = await h.kubectl(['apply', '-f', '-'], widget('bad', spec));
    expect(out.code).not.toBe(0);
    for (const m of messages) expect(out.stderr).toContain(m);
  });

  it('enforces the transition rule on update only', async () => {
    await h.kubectl(['apply', '-f', '-'], widget('managed', '{size: 1, managedBy: rayjob.dev/operator}'));
    const out = await h.kubectl(['patch', 'widget', 'managed', '--type=merge', '-p', '{"spec":{"managedBy":"kueue.x-k8s.io/multikueue"}}']);
    expect(out.stderr).toContain('The Widget "managed" is invalid: spec.managedBy: Invalid value: "string": the managedBy field is immutable');
  });

  it('rejects a CRD whose CEL rule does not compile', async () => {
    const bad = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.test.rayjob.dev}
spec:
  group: test.rayjob.dev
  scope: Namespaced
  names: {plural: gadgets, kind: Gadget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-validations: [{rule: "self.spec ==", message: broken}]
`;
    const out = await h.kubectl(['apply', '-f', '-'], bad);
    expect(out.stderr).toContain('spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: "self.spec ==": compilation failed');
  });

  it('refuses strategic merge patches on custom resources with 415, as the real server does', async () => {
    const out = await h.kubectl(['patch', 'widget', 'w1', '--type=strategic', '-p', '{"spec":{"size":2}}']);
    expect(out.stderr).toMatch(/UnsupportedMediaType|unknown format|not supported/i);
  });
});
