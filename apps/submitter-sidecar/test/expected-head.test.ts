// --expected-head-ip / RAYJOB_SUBMITTER_EXPECTED_HEAD_IP (addition H; campaign seeds 152, 239, 827): a submitter
// about to submit asks Ray which node is the head and refuses a head at another IP than the one its attempt's first
// submitter started on (exit 6, nothing POSTed): that head replaced one which may have run the job unseen.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseTerminationMessage } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/cli/load-config.ts';
import { startInProcess } from './support/in-process.ts';

let emulator: RayEmulator;
let proxy: Server | undefined;
let seq = 0;
const id = () => `head-${process.pid}-${++seq}`;
// The emulator's head is at its bind address.
const HEAD = '127.0.0.1';

beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  proxy = undefined;
});

/** A dashboard in front of the emulator whose `/nodes` answers `nodes(n)` for the n-th call (undefined: the emulator's). */
async function dashboardWithNodes(nodes: (n: number) => { status: number; body: string } | undefined): Promise<string> {
  const target = new URL(emulator.url);
  let calls = 0;
  proxy = createServer((req, res) => {
    const own = req.url?.startsWith('/nodes') ? nodes(++calls) : undefined;
    if (own) {
      res.writeHead(own.status, { 'content-type': 'application/json' }).end(own.body);
      return;
    }
    const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const posts = () => emulator.requests().filter((r) => r.method === 'POST');

describe('the expected head', () => {
  it.each<{ name: string; argv: string[]; env: Record<string, string> }>([
    { name: '--expected-head-ip', argv: ['--expected-head-ip', '10.9.9.9'], env: {} },
    { name: 'RAYJOB_SUBMITTER_EXPECTED_HEAD_IP', argv: [], env: { RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.9.9.9' } },
    { name: 'the flag over a matching env', argv: ['--expected-head-ip', '10.9.9.9'], env: { RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: HEAD } },
  ])('$name: another head -> exit 6, nothing POSTed, both IPs and why in the final word', async ({ argv, env }) => {
    const sid = id();
    const run = startInProcess([...argv, '--', 'echo must-not-run'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid, ...env });
    const result = await run.done;
    expect(result.exitCode).toBe(6);
    expect(posts()).toEqual([]);
    expect(emulator.jobs()).toHaveLength(0);
    const final = parseTerminationMessage(run.terminationLog());
    expect(final).toMatchObject({ submissionId: sid, exitCode: 6, reason: 'AttachTargetMissing' });
    expect(final?.message).toContain(`whose head is at ${HEAD}, not at 10.9.9.9`);
    expect(final?.message).toMatch(/the head was replaced since then, and the job may have been submitted to the lost head, so it is not submitted again/);
    expect(run.stderr()).toContain('Nothing was submitted');
  });

  it('the same head: submits and follows the job (exit 0); an env over a matching flag is not read', async () => {
    const run = startInProcess(['--expected-head-ip', HEAD, '--', 'echo ran'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: id(), RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.9.9.9' });
    expect((await run.done).exitCode).toBe(0);
    expect(emulator.jobs()).toHaveLength(1);
    expect(run.stderr()).not.toContain('cannot check');
  });

  it('a job Ray knows is attached to without the check (the expected IP is not this head\'s, yet exit 0)', async () => {
    const sid = id();
    expect((await startInProcess(['--no-wait', '--', 'echo once'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid }).done).exitCode).toBe(0);
    const run = startInProcess(['--expected-head-ip', '10.9.9.9', '--', 'echo once'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid });
    expect((await run.done).exitCode).toBe(0);
    expect(emulator.jobs()).toHaveLength(1);
  });

  it.each([
    { name: 'a node table without a head entry', nodes: { status: 200, body: JSON.stringify({ result: true, msg: '', data: { summary: [] } }) }, why: 'the node table names no head' },
    { name: 'no node table (404)', nodes: { status: 404, body: '{}' }, why: 'the dashboard has no node table (404)' },
  ])('$name: a warning, then it submits (no check is better than a false failure)', async ({ nodes, why }) => {
    const address = await dashboardWithNodes(() => nodes);
    // --no-wait: the proxy carries no WebSocket log tail, and the submission is what this case is about.
    const run = startInProcess(['--no-wait', '--', 'echo ran'], { RAY_DASHBOARD_ADDRESS: address, RAY_JOB_SUBMISSION_ID: id(), RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.9.9.9' });
    expect((await run.done).exitCode).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(run.stderr()).toContain(`cannot check that the head is still at 10.9.9.9 (${why}); submitting without the check`);
  });

  it('a node table that fails (503) is asked again within --max-unreachable, then the check decides', async () => {
    const address = await dashboardWithNodes((n) => (n <= 2 ? { status: 503, body: 'busy' } : undefined));
    const run = startInProcess(['--', 'echo must-not-run'], { RAY_DASHBOARD_ADDRESS: address, RAY_JOB_SUBMISSION_ID: id(), RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.9.9.9' });
    expect((await run.done).exitCode).toBe(6);
    expect(posts()).toEqual([]);
  });

  it('a node table that stays down ends with exit 4 once --max-unreachable is spent, nothing POSTed', async () => {
    const address = await dashboardWithNodes(() => ({ status: 503, body: 'busy' }));
    const run = startInProcess(['--max-unreachable', '300ms', '--', 'echo must-not-run'], { RAY_DASHBOARD_ADDRESS: address, RAY_JOB_SUBMISSION_ID: id(), RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.9.9.9' });
    expect((await run.done).exitCode).toBe(4);
    expect(posts()).toEqual([]);
  });

  it('an empty --expected-head-ip is a usage error naming the flag; an empty env means no check', () => {
    const base = { RAY_DASHBOARD_ADDRESS: emulator.url };
    expect(loadConfig({ argv: ['--expected-head-ip', ' ', '--', 'x'], env: base })).toMatchObject({ kind: 'usage-error', message: expect.stringContaining('--expected-head-ip') });
    expect(loadConfig({ argv: ['--', 'x'], env: { ...base, RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '' } })).toMatchObject({ kind: 'config', config: { expectedHeadIp: undefined } });
  });
});
