// Benchmark (not a test): create 10,000 custom objects over HTTP while a watch streams them, then list
// them, and compare time and memory with a baseline measured in the same run: the same objects pushed
// through a plain in-process Map with a JSON round trip each (the least any store must do), and the
// RSS of an idle `node -e` process.
//   node packages/sandbox/bench/custom-objects.ts [count]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startApiServer } from '../src/index.ts';

const count = Number(process.argv[2] ?? 10_000);
const concurrency = 16;
const crd = join(import.meta.dirname, '..', 'test', 'fixtures', 'widgets-crd.yaml');
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
const widget = (i: number) => ({
  apiVersion: 'test.rayjob.dev/v1',
  kind: 'Widget',
  metadata: { name: `w-${i}`, labels: { batch: String(i % 10) } },
  spec: { size: (i % 50) + 1, color: 'green', tags: ['bench'], extra: { payload: 'x'.repeat(200) } },
});

function baseline(): { ms: number; heap: number } {
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const map = new Map<string, unknown>();
  let rv = 0;
  for (let i = 0; i < count; i++) {
    const obj = JSON.parse(JSON.stringify(widget(i))) as { metadata: Record<string, unknown> };
    obj.metadata.resourceVersion = String(++rv);
    map.set(`default/w-${i}`, obj);
  }
  const listed = JSON.stringify({ items: [...map.values()] });
  const ms = performance.now() - t0;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed - heap0;
  if (listed.length === 0) throw new Error('unreachable');
  return { ms, heap };
}

const idleRss = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.memoryUsage().rss))']).toString());
const base = baseline();

globalThis.gc?.();
const rss0 = process.memoryUsage().rss;
const heap0 = process.memoryUsage().heapUsed;
const server = await startApiServer({ crds: [crd] });
const url = `${server.url}/apis/test.rayjob.dev/v1/namespaces/default/widgets`;

// Watch first, so fan-out is part of the measured path.
let seen = 0;
const watchDone = (async () => {
  const res = await fetch(`${url}?watch=true&resourceVersion=${server.store.currentRv()}`);
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      buf = buf.slice(nl + 1);
      if (++seen >= count) return;
    }
  }
})();

const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(widget(i)) });
      if (res.status !== 201) throw new Error(`create w-${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }),
);
const createdMs = performance.now() - t0;
await watchDone;
const watchedMs = performance.now() - t0;
const t1 = performance.now();
const list = (await (await fetch(url)).json()) as { items: unknown[] };
const listMs = performance.now() - t1;
const t2 = performance.now();
const selected = (await (await fetch(`${url}?labelSelector=batch%3D3`)).json()) as { items: unknown[] };
const selectMs = performance.now() - t2;
globalThis.gc?.();
const rss = process.memoryUsage().rss - rss0;
const heap = process.memoryUsage().heapUsed - heap0;
await server.stop();

const rows: Array<[string, string]> = [
  [`create ${count} over HTTP (${concurrency} in flight)`, `${createdMs.toFixed(0)} ms (${((count / createdMs) * 1000).toFixed(0)}/s)`],
  [`watch saw all ${count} ADDED events`, `${watchedMs.toFixed(0)} ms after start`],
  [`list ${list.items.length}`, `${listMs.toFixed(0)} ms`],
  [`list with labelSelector (${selected.items.length} items)`, `${selectMs.toFixed(0)} ms`],
  ['baseline: Map + JSON round trip of the same objects', `${base.ms.toFixed(0)} ms`],
  ['ratio create+watch / baseline', `${(watchedMs / base.ms).toFixed(1)}x`],
  ['server heap growth (store + history)', mb(heap)],
  ['baseline heap growth (Map)', mb(base.heap)],
  ['ratio heap / baseline heap', `${(heap / Math.max(1, base.heap)).toFixed(1)}x`],
  ['process RSS growth', mb(rss)],
  ['idle node RSS (node -e)', mb(idleRss)],
  ['ratio RSS growth / idle node RSS', `${(rss / idleRss).toFixed(2)}x`],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
if (seen < count) process.exitCode = 1;
