import { describe, expect, it } from 'vitest';
import { compareRayVersions, gateSubmitBody } from '../src/index.ts';
import { client, emulator, untilStatus } from './support/fixtures.ts';

const everything = {
  entrypoint: 'true',
  metadata: { a: 'b' },
  runtime_env: {},
  entrypoint_num_cpus: 0.5,
  entrypoint_num_gpus: 0,
  entrypoint_memory: 1024,
  entrypoint_resources: { r: 0 },
  entrypoint_label_selector: { zone: 'a' },
};

describe('version-aware submit', () => {
  it.each([
    ['2.58.0', []],
    ['2.54.0', []],
    ['2.53.2', ['entrypoint_label_selector']],
    ['2.9.3', ['entrypoint_label_selector']],
    ['2.7.0', ['entrypoint_memory', 'entrypoint_label_selector']],
    ['2.1.0', ['entrypoint_num_cpus', 'entrypoint_num_gpus', 'entrypoint_memory', 'entrypoint_resources', 'entrypoint_label_selector']],
  ])('an emulator pretending Ray %s accepts the submit; the client drops %j', async (rayVersion, dropped) => {
    const e = await emulator({ rayVersion });
    const c = client({ address: e.url });
    const result = await c.submit(everything);
    expect(result.kind === 'ok' && [...result.value.droppedFields].sort()).toEqual([...dropped].sort());
    expect(e.jobs()).toHaveLength(1);
  });

  it('the same body sent to an old emulator without gating is refused (the gate is what makes it pass)', async () => {
    const e = await emulator({ rayVersion: '2.7.0' });
    const result = await client({ address: e.url, rayVersion: '2.58.0' }).submit(everything);
    expect(result.kind).toBe('rejected');
  });

  it.each(['2.9.3', '2.7.1'])('reads a FAILED job from Ray %s (error_type null, maybe no driver_exit_code)', async (rayVersion) => {
    const e = await emulator({ rayVersion });
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'exit 2', submission_id: 'old' });
    await untilStatus(c, 'old', 'FAILED');
    const job = await c.getJob('old');
    expect(job).toMatchObject({ kind: 'ok', value: { status: 'FAILED', error_type: null } });
  });

  it('passes the version-read failure through instead of guessing', async () => {
    const e = await emulator();
    e.faults.fail5xx(1, 502);
    const c = client({ address: e.url });
    expect(await c.submit({ entrypoint: 'true' })).toMatchObject({ kind: 'unavailable', cause: 'server-error', status: 502 });
    expect((await c.submit({ entrypoint: 'true' })).kind).toBe('ok');
  });

  it.each([
    ['2.58.0', '2.54.0', 1],
    ['2.9.0', '2.10.0', -1],
    ['2.8', '2.8.0', 0],
    ['3.0.0.dev0', '2.58.0', 1],
    ['2.10.0rc1', '2.9.9', 1],
  ])('compares %s with %s as %i', (a, b, expected) => {
    expect(compareRayVersions(a, b)).toBe(expected);
  });

  it('drops null and undefined values whatever the version', () => {
    expect(gateSubmitBody({ entrypoint: 'x', metadata: undefined, runtime_env: null }, '2.58.0')).toEqual({
      body: { entrypoint: 'x' }, dropped: [],
    });
  });
});
