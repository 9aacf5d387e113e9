// Patch engines and printer-column JSONPath, as pure functions.
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, applyMergePatch } from '../../src/apiserver/encodings/json-patch.ts';
import { evaluateJsonPath } from '../../src/apiserver/tables/jsonpath.ts';
import { applyStrategicMergePatch } from '../../src/apiserver/encodings/strategic-merge.ts';

const pod = {
  metadata: { labels: { a: '1' }, finalizers: ['x'] },
  spec: {
    containers: [
      { name: 'main', image: 'busybox', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] },
      { name: 'side', image: 'nginx' },
    ],
    volumes: [{ name: 'v1', emptyDir: {} }],
  },
};

describe('strategic merge patch', () => {
  it.each([
    ['merges containers by name', { spec: { containers: [{ name: 'side', image: 'nginx:2' }] } }, (r: typeof pod) => r.spec.containers.map((c) => `${c.name}=${c.image}`), ['main=busybox', 'side=nginx:2']],
    ['appends a new container', { spec: { containers: [{ name: 'third', image: 'x' }] } }, (r: typeof pod) => r.spec.containers.map((c) => c.name), ['main', 'side', 'third']],
    ['deletes with $patch: delete', { spec: { containers: [{ name: 'side', $patch: 'delete' }] } }, (r: typeof pod) => r.spec.containers.map((c) => c.name), ['main']],
    ['merges env by name inside a container', { spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }] }] } }, (r: typeof pod) => r.spec.containers[0]?.env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]],
    ['merges container ports by containerPort', { spec: { containers: [{ name: 'main', ports: [{ containerPort: 80, name: 'http' }] }] } }, (r: typeof pod) => r.spec.containers[0]?.ports, [{ containerPort: 80, name: 'http' }]],
    ['replaces a list with $patch: replace', { spec: { volumes: [{ name: 'v2' }, { $patch: 'replace' }] } }, (r: typeof pod) => r.spec.volumes, [{ name: 'v2' }]],
    ['unions finalizers', { metadata: { finalizers: ['y'] } }, (r: typeof pod) => r.metadata.finalizers, ['x', 'y']],
    ['removes from primitive lists with $deleteFromPrimitiveList', { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } }, (r: typeof pod) => r.metadata.finalizers, []],
    ['drops $setElementOrder directives', { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'main' }] } }, (r: typeof pod) => Object.keys(r.spec), ['containers', 'volumes']],
    ['null deletes a map key', { metadata: { labels: { a: null } } }, (r: typeof pod) => r.metadata.labels, {}],
  ])('%s', (_what, patch, read, expected) => {
    expect(read(applyStrategicMergePatch(pod, patch, 'Pod') as typeof pod)).toEqual(expected);
  });

  it('merges service ports by port', () => {
    const svc = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const out = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, 'Service') as typeof svc;
    expect(out.spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });
});

describe('JSON patch and merge patch', () => {
  it.each([
    ['add to a map', [{ op: 'add', path: '/metadata/labels/b', value: '2' }], { a: '1', b: '2' }],
    ['remove', [{ op: 'remove', path: '/metadata/labels/a' }], {}],
    ['replace', [{ op: 'replace', path: '/metadata/labels/a', value: 'z' }], { a: 'z' }],
    ['move', [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/c' }], { c: '1' }],
    ['copy', [{ op: 'copy', from: '/metadata/labels/a', path: '/metadata/labels/d' }], { a: '1', d: '1' }],
    ['replace of a key the object lacks sets it (kube-apiserver\'s evanphx/json-patch v4; Ray\'s autoscaler relies on it)', [{ op: 'replace', path: '/metadata/labels/new', value: 'n' }], { a: '1', new: 'n' }],
    ['escaped keys (~1)', [{ op: 'add', path: '/metadata/labels/ray.io~1node', value: 'h' }], { a: '1', 'ray.io/node': 'h' }],
  ])('json patch: %s', (_what, ops, labels) => {
    const r = applyJsonPatch(pod, ops);
    expect(r.ok && (r.value as typeof pod).metadata.labels).toEqual(labels);
  });

  it('json patch: failing test op and missing paths are errors', () => {
    expect(applyJsonPatch(pod, [{ op: 'test', path: '/metadata/labels/a', value: '2' }]).ok).toBe(false);
    expect(applyJsonPatch(pod, [{ op: 'replace', path: '/nope/x', value: 1 }]).ok).toBe(false);
    expect(applyJsonPatch(pod, [{ op: 'replace', path: '/spec/containers/5', value: {} }]).ok).toBe(false);
    expect(applyJsonPatch(pod, [{ op: 'add', path: '/spec/containers/-', value: { name: 'n' } }]).ok).toBe(true);
  });

  it('merge patch: nested merge, null deletes, arrays replace', () => {
    expect(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: null, d: 3 }, l: [9] })).toEqual({ a: { b: 1, d: 3 }, l: [9] });
  });
});

describe('printer-column JSONPath', () => {
  const obj = { status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'Failed', status: 'False' }], n: 3 }, spec: { 'a.b': 'dotted', list: [{ name: 'x' }, { name: 'y' }] } };
  it.each([
    ['.status.n', [3]],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    [".spec['a.b']", ['dotted']],
    ['.spec.list[*].name', ['x', 'y']],
    ['.spec.list[1].name', ['y']],
    ['{.spec.list[0].name}', ['x']],
    ['.status.missing', []],
  ])('%s', (path, expected) => {
    expect(evaluateJsonPath(obj, path)).toEqual(expected);
  });
});
