import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createStringInterner } from '../src/cache/intern-strings.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settledHeap = (): number => {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
};

// A head pod as the API server sends it, trimmed of what does not matter here: many strings repeat in every pod.
const pod = (i: number): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `job-${i}-head`, namespace: 'team-analytics', uid: `uid-${i}`, labels: { 'app.kubernetes.io/created-by': 'kuberay-operator', 'ray.io/node-type': 'head', 'ray.io/cluster': `job-${i}` } },
    spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0-py311-cpu', imagePullPolicy: 'IfNotPresent' }], restartPolicy: 'Always', schedulerName: 'default-scheduler' },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null })),
      containerStatuses: [{ name: 'ray-head', ready: true, restartCount: 0, image: 'docker.io/rayproject/ray:2.58.0-py311-cpu', state: { running: { startedAt: '2026-12-06T07:59:17Z' } } }],
    },
  });

/** Heap per object of `count` parsed pods, each passed through `ingest`. */
function heapPerPod(count: number, ingest: (o: unknown) => unknown): number {
  const texts = Array.from({ length: count }, (_, i) => pod(i));
  const kept: unknown[] = new Array<unknown>(count);
  const before = settledHeap();
  for (let i = 0; i < count; i++) kept[i] = ingest(JSON.parse(texts[i]!));
  const after = settledHeap();
  // Both stay alive past the reading (a dead one would be collected in it and skew the difference).
  expect(kept).toHaveLength(texts.length);
  return (after - before) / count;
}

describe('string interner', () => {
  it('keeps every value as it was', () => {
    const interner = createStringInterner();
    const parsed: unknown = JSON.parse(pod(7));
    expect(interner.intern(parsed)).toEqual(JSON.parse(pod(7)));
    expect(interner.intern(Object.freeze({ a: 'x', b: ['y'] }))).toEqual({ a: 'x', b: ['y'] });
  });

  it('cached objects share one copy of each repeated string: parsed pods take far less heap', () => {
    const plain = heapPerPod(4000, (o) => o);
    const interner = createStringInterner();
    const interned = heapPerPod(4000, (o) => interner.intern(o));
    expect(interned).toBeLessThan(plain * 0.85);
  });

  it('its table is bounded: unique strings start a new table instead of growing it', () => {
    const interner = createStringInterner(100);
    for (let i = 0; i < 1000; i++) interner.intern({ name: `unique-${i}` });
    expect(interner.size()).toBeLessThanOrEqual(100);
    const long = 'x'.repeat(200);
    interner.intern({ long });
    expect(interner.size()).toBeLessThanOrEqual(100);
  });
});
