// What the event recorder keeps is bounded: an operator sees millions of objects over weeks, and the recorder's
// memories (the series of each event, the similar-notes groups of each object/type/reason) must not grow with
// them (issue 23: +191 MB heap over 80k objects). Notes are clipped to the API server's limit in bytes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { clipToBytes, createEventRecorder, EVENT_NOTE_MAX_BYTES, type KubeClient, type KubeObject } from '../src/index.ts';
import { eventsV1Body, coreEventBody, seriesPatch } from '../src/events/event-bodies.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

/** An API server that takes every event at once (what is measured is the recorder, not a server). */
function acceptingClient(): { client: KubeClient; writes: () => number } {
  let n = 0;
  const answer = (body: unknown) => {
    n += 1;
    const meta = (body as KubeObject).metadata ?? { name: 'x', namespace: 'default' };
    return Promise.resolve({ ok: true as const, value: { metadata: { name: meta.name, namespace: meta.namespace } } as KubeObject });
  };
  const client = { create: (_type: unknown, body: unknown) => answer(body), patch: () => answer(undefined) } as unknown as KubeClient;
  return { client, writes: () => n };
}

const regarding = (i: number): KubeObject => ({ apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: `job-${i}`, namespace: `ns-${i % 50}`, uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}` } });
const bytes = (s: string): number => new TextEncoder().encode(s).length;

describe('event recorder bounds', { timeout: 120_000 }, () => {
  it('keeps memory flat over 100k distinct objects (each with several event reasons)', async () => {
    const { client, writes } = acceptingClient();
    const recorder = createEventRecorder({ client, component: 'rayjob-controller', instance: 'op-0' });
    const record = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const obj = regarding(i);
        recorder.event(obj, 'Normal', 'CreatedRayCluster', 'Create', `Created RayCluster ${obj.metadata.namespace}/${obj.metadata.name}-raycluster-abcde`);
        recorder.event(obj, 'Warning', 'FailedToCreateService', 'Create', `Failed to create Service ${obj.metadata.name}-head-svc: the server is busy`);
        if (i % 500 === 499) await recorder.flush();
      }
      await recorder.flush();
    };
    await record(0, 20_000); // warm: every cache at its bound
    const warm = heapAfterGc();
    await record(20_000, 100_000);
    const after = heapAfterGc();
    const grownMb = (after - warm) / 2 ** 20;
    console.log(`event recorder: heap grew ${grownMb.toFixed(1)} MB over 80k more objects`);
    // Unbounded (before issue 23), the 80k more objects cost ~80 MB here (a similar-notes group per object and reason).
    expect(grownMb).toBeLessThan(8);
    expect(writes()).toBe(200_000);
    const stats = recorder.stats();
    expect(stats.remembered).toBeLessThanOrEqual(4096);
    expect(stats.similarGroups).toBeLessThanOrEqual(4096);
  });

  it('drops events past 1000 waiting to be written instead of queueing them without end', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let n = 0;
    const client = { create: async (_t: unknown, body: KubeObject) => { n += 1; await held; return { ok: true, value: body }; } } as unknown as KubeClient;
    const recorder = createEventRecorder({ client, component: 'rayjob-controller' });
    for (let i = 0; i < 5_000; i++) recorder.event(regarding(i), 'Normal', 'Created', 'Create', `event ${i}`);
    expect(recorder.stats()).toMatchObject({ queued: 1000, dropped: 4000 });
    release();
    await recorder.flush();
    expect(n).toBe(1000);
    expect(recorder.stats().queued).toBe(0);
  });
});

describe('event notes are clipped to 1 KiB of UTF-8', () => {
  const cases: Array<[string, string]> = [
    ['ASCII under the limit is kept', 'a'.repeat(1024)],
    ['ASCII over the limit', 'a'.repeat(5000)],
    ['three-byte characters (CJK)', '日本語のエラー'.repeat(300)],
    ['four-byte characters (emoji, surrogate pairs in UTF-16)', '🚀'.repeat(400)],
    ['a mix ending on a multi-byte boundary', `${'x'.repeat(1019)}é🚀🚀`],
  ];
  it.each(cases)('%s', (_name, note) => {
    const clipped = clipToBytes(note, EVENT_NOTE_MAX_BYTES);
    expect(bytes(clipped)).toBeLessThanOrEqual(1024);
    if (bytes(note) <= 1024) expect(clipped).toBe(note);
    else {
      expect(clipped.endsWith('...')).toBe(true);
      // Whole code points only: what is kept is a prefix of the note, and nothing is left half.
      const kept = clipped.slice(0, -3);
      expect(note.startsWith(kept)).toBe(true);
      expect(kept).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(bytes(kept)).toBeGreaterThan(1024 - 3 - 4);
    }
  });

  it('every event body the recorder writes carries a note within the limit (events.k8s.io, core/v1, series patch)', () => {
    const note = 'ジョブの送信に失敗しました: '.repeat(200);
    const fields = { regarding: regarding(1), type: 'Warning' as const, reason: 'Failed', action: 'Submit', note };
    expect(bytes(String(eventsV1Body(fields, 0, 'c', 'i').note))).toBeLessThanOrEqual(1024);
    expect(bytes(String(coreEventBody(fields, 0, 'c', 'i').message))).toBeLessThanOrEqual(1024);
    expect(bytes(String(seriesPatch('events.k8s.io', 2, 0, note).note))).toBeLessThanOrEqual(1024);
  });
});
