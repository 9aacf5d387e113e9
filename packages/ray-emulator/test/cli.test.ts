import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { raw } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
/** A fresh node process loading TypeScript sources can take seconds on a loaded 2-core machine. */
const startBound = 30_000;
const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[]) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'pipe' });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

it('prints the URL, serves Ray\'s API with token auth, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'emu-cli-'));
  writeFileSync(join(dir, 'token'), 'cli-token\n');
  const p = start(['--port', '0', '--auth-token-file', join(dir, 'token'), '--ray-version', '2.9.0']);
  const url = await waitFor(() => /^(http:\/\/127\.0\.0\.1:\d+)\n/.exec(p.out())?.[1], { what: 'the URL', timeoutMs: startBound });
  expect((await raw(url, 'GET', '/api/version')).status).toBe(401);
  const version = await raw(url, 'GET', '/api/version', { headers: { authorization: 'Bearer cli-token' } });
  expect(JSON.parse(version.body).ray_version).toBe('2.9.0');
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
});

it('with --faults, serves a control port that stops and restarts the dashboard', { timeout: 60_000 }, async () => {
  const p = start(['--port', '0', '--faults']);
  const urls = await waitFor(() => /^(http:\/\/\S+)\nfaults: (http:\/\/\S+)\n/.exec(p.out()), { what: 'both URLs', timeoutMs: startBound });
  const [, url, control] = urls as unknown as [string, string, string];
  expect((await raw(control, 'POST', '/stopDashboard')).status).toBe(200);
  await expect(raw(url, 'GET', '/api/version')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  expect((await raw(control, 'POST', '/startDashboard')).status).toBe(200);
  expect((await raw(url, 'GET', '/api/version')).status).toBe(200);
  const worker = await raw(control, 'POST', '/addWorkerNode', { body: '{"resources":{"x":1}}' });
  expect(JSON.parse(worker.body).nodeId).toMatch(/^[0-9a-f]{56}$/);
  expect((await raw(control, 'POST', '/fail5xx?count=1&status=502')).status).toBe(200);
  expect((await raw(url, 'GET', '/api/version')).status).toBe(502);
  expect((await raw(control, 'POST', '/nonsense')).status).toBe(400);
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
});

it.each([
  [['--port', 'abc'], '--port must be an integer'],
  [['--bogus'], "Unknown option '--bogus'"],
  [['--auth-token-file', '/nonexistent/file'], '--auth-token-file: cannot read'],
])('refuses bad arguments %j with exit 2 and a message naming the flag', async (args, message) => {
  const p = start(args);
  expect(await p.exited).toBe(2);
  expect(p.err()).toContain(message);
});

it('with --process-titles, `pkill -f` of the JobHead restarts JobHead and of the DashboardAgent kills the head node, as on Ray', { timeout: 90_000 }, async () => {
  const p = start(['--port', '0', '--process-titles']);
  const url = await waitFor(() => /^(http:\/\/127\.0\.0\.1:\d+)\n/.exec(p.out())?.[1], { what: 'the URL', timeoutMs: startBound });
  const pkill = (pattern: string) => new Promise<number | null>((resolve) => spawn('pkill', ['-f', pattern]).on('exit', resolve));
  // Patterns carry the emulator's pid, so tests running beside this one keep their own sentinels.
  const own = ` --pid=${p.child.pid} `;
  const titled = (pattern: string) => new Promise<boolean>((resolve) => spawn('pgrep', ['-f', pattern]).on('exit', (code) => resolve(code === 0)));
  await waitFor(async () => (await titled(`^ray-dashboard-JobHead-0${own}`)) && (await titled(`^ray::DashboardAgent${own}`))  || undefined, { what: 'both titled processes', timeoutMs: startBound });

  expect(await pkill(`^ray-dashboard-JobHead-0${own}`)).toBe(0);
  // JobHead restarts: its routes answer 500 for a moment, then a new incarnation runs.
  await waitFor(async () => ((await raw(url, 'GET', '/api/jobs/')).status === 500) || undefined, { what: 'JobHead down (500)', timeoutMs: startBound });
  await waitFor(async () => (await titled(`^ray-dashboard-JobHead-1${own}`)) || undefined, { what: 'the next JobHead incarnation', timeoutMs: startBound });
  await waitFor(async () => ((await raw(url, 'GET', '/api/jobs/')).status === 200) || undefined, { what: 'JobHead back', timeoutMs: startBound });

  expect(await pkill(`^ray::DashboardAgent${own}`)).toBe(0);
  await waitFor(async () => {
    const nodes = JSON.parse((await raw(url, 'GET', '/nodes?view=summary')).body);
    return JSON.stringify(nodes).includes('"DEAD"') || undefined;
  }, { what: 'the head node DEAD', timeoutMs: 20_000 });

  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
  expect(await titled(`^ray-dashboard-JobHead-.*${own}`)).toBe(false);
});
