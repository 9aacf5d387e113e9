import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { startRayEmulator } from '../src/index.ts';
import { fastTiming } from '../src/timing.ts';
import { raw, submit } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

import { printedLine } from './support/printed-line.ts';

/** Pids whose environment carries the marker (Linux /proc), i.e. every process of this test's entrypoints. */
function markedPids(marker: string): number[] {
  const out = spawnSync('sh', ['-c', `grep -l -a "EMU_MARK=${marker}" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3`], { encoding: 'utf8' });
  return out.stdout.split('\n').filter(Boolean).map(Number).filter((pid) => pid !== process.pid);
}

it.each([
  ['a running driver with background children', 'sleep 30 & sleep 30 & echo up; wait'],
  ['a driver that ignores SIGTERM', 'trap "" TERM; (sleep 30 &); echo up; while true; do sleep 0.05; done'],
])('stop() leaves no process behind: %s', async (_name, entrypoint) => {
  const marker = `m${Math.random().toString(36).slice(2)}`;
  const e = await startRayEmulator({ timing: fastTiming, env: { EMU_MARK: marker } });
  await submit(e.url, { entrypoint, submission_id: 'c1' });
  await waitFor(async () => printedLine(await raw(e.url, 'GET', '/api/jobs/c1/logs'), 'up'), { what: 'the driver to start' });
  await waitFor(() => markedPids(marker).length >= 2, { what: 'the driver and its children to be visible' });
  await e.stop();
  await waitFor(() => markedPids(marker).length === 0, { what: 'every child to exit', timeoutMs: 3_000 });
  await expect(raw(e.url, 'GET', '/api/version')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
});

it('a finished job leaves no background process behind', async () => {
  const marker = `m${Math.random().toString(36).slice(2)}`;
  const e = await startRayEmulator({ timing: fastTiming, env: { EMU_MARK: marker } });
  try {
    await submit(e.url, { entrypoint: '(sleep 30 >/dev/null 2>&1 &); echo bye', submission_id: 'c2' });
    await waitFor(async () => (await raw(e.url, 'GET', '/api/jobs/c2')).body.includes('SUCCEEDED'), { what: 'SUCCEEDED' });
    await waitFor(() => markedPids(marker).length === 0, { what: 'the group to be killed', timeoutMs: 3_000 });
  } finally {
    await e.stop();
  }
});
