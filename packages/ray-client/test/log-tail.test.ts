import { createHash } from 'node:crypto';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { client, emulator, onCleanup, untilStatus } from './support/fixtures.ts';
import { waitFor } from './support/wait-for.ts';

const longJob = 'echo started; while true; do sleep 0.05; done';

describe('tailLogs', () => {
  it('closed/1000 after the job ends, chunks as Ray sent them', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'for i in $(seq 1 12); do echo l$i; done', submission_id: 't1' });
    const chunks: string[] = [];
    const end = await c.tailLogs('t1', { onChunk: (x) => chunks.push(x) });
    expect(end).toEqual({ kind: 'closed', code: 1000, reason: '', chunks: chunks.length });
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.join('')).toContain('l12\n');
  });

  it('closed/1000 while the job still runs when JobHead restarts (close 1000 is not completion)', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 't2' });
    const chunks: string[] = [];
    const ending = c.tailLogs('t2', { onChunk: (x) => chunks.push(x) });
    await waitFor(() => chunks.join('').includes('started'), { what: 'first chunk' });
    await e.faults.restartJobHead({ downForMs: 200 });
    expect(await ending).toMatchObject({ kind: 'closed', code: 1000 });
    await waitFor(async () => (await c.getJob('t2')).kind === 'ok', { what: 'JobHead back' });
    expect((await c.getJob('t2')).kind === 'ok' && (await c.getJob('t2'))).toMatchObject({ value: { status: 'RUNNING' } });
  });

  it('cut/1006 when the dashboard dies mid-tail', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 't3' });
    const chunks: string[] = [];
    const ending = c.tailLogs('t3', { onChunk: (x) => chunks.push(x) });
    await waitFor(() => chunks.length > 0, { what: 'first chunk' });
    await e.faults.stopDashboard();
    expect(await ending).toMatchObject({ kind: 'cut', code: 1006 });
  });

  it('cut/1006 on loseHead, and the job is then not-found', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 't4' });
    const chunks: string[] = [];
    const ending = c.tailLogs('t4', { onChunk: (x) => chunks.push(x) });
    await waitFor(() => chunks.length > 0, { what: 'first chunk' });
    await e.faults.loseHead();
    expect(await ending).toMatchObject({ kind: 'cut', code: 1006 });
    expect((await c.getJob('t4')).kind).toBe('not-found');
  });

  it('closed/1000 when the head agent dies; the job then stays RUNNING', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 't5' });
    const chunks: string[] = [];
    const ending = c.tailLogs('t5', { onChunk: (x) => chunks.push(x) });
    await waitFor(() => chunks.length > 0, { what: 'first chunk' });
    await e.faults.killAgent();
    expect(await ending).toMatchObject({ kind: 'closed', code: 1000 });
    expect(await c.getJob('t5')).toMatchObject({ kind: 'ok', value: { status: 'RUNNING' } });
    expect(await c.stopJob('t5')).toMatchObject({ kind: 'unavailable', cause: 'server-error', status: 500 });
  });

  it('misses the final chunk under ray#46413 (dropLastLogChunk) while getLogs has it', async () => {
    const e = await emulator();
    e.faults.dropLastLogChunk(true);
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'echo one; sleep 0.1; echo fin$((1))', submission_id: 't6' });
    const chunks: string[] = [];
    expect(await c.tailLogs('t6', { onChunk: (x) => chunks.push(x) })).toMatchObject({ kind: 'closed' });
    const logs = await c.getLogs('t6');
    expect(logs.kind === 'ok' && logs.value).toContain('fin1\n');
    expect(chunks.join('')).not.toContain('fin1');
  });

  it('aborted when the caller\'s signal fires', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 't7' });
    const controller = new AbortController();
    const chunks: string[] = [];
    const ending = c.tailLogs('t7', { onChunk: (x) => chunks.push(x), signal: controller.signal });
    await waitFor(() => chunks.length > 0, { what: 'first chunk' });
    controller.abort();
    expect(await ending).toEqual({ kind: 'aborted', chunks: chunks.length });
  });

  it('never offers permessage-deflate (the emulator records the upgrade headers)', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'echo x', submission_id: 't8' });
    await c.tailLogs('t8', { onChunk: () => undefined });
    const upgrades = e.requests().filter((r) => r.upgrade);
    expect(upgrades).toHaveLength(1);
    expect(upgrades[0]?.headers['sec-websocket-extensions']).toBeUndefined();
  });

  it('never offers permessage-deflate (a raw ws server that would accept it)', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true });
    onCleanup(() => new Promise((r) => wss.close(() => r())));
    await new Promise((r) => wss.once('listening', r));
    const offered: Array<string | undefined> = [];
    wss.on('connection', (ws, req) => {
      offered.push(req.headers['sec-websocket-extensions']);
      ws.send('frame\n');
      ws.close(1000);
    });
    const port = (wss.address() as { port: number }).port;
    const chunks: string[] = [];
    const end = await client({ address: `127.0.0.1:${port}` }).tailLogs('x', { onChunk: (x) => chunks.push(x) });
    expect(end).toMatchObject({ kind: 'closed', code: 1000 });
    expect(offered).toEqual([undefined]);
    expect(chunks).toEqual(['frame\n']);
  });

  it('cut after a keep-alive ping goes unanswered (half-open connection)', async () => {
    // A peer that completes the handshake by hand and then never answers anything, not even pings.
    const sockets = new Set<Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.once('data', (data) => {
        const key = /sec-websocket-key: (.+)\r\n/i.exec(data.toString())?.[1] ?? '';
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onCleanup(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    });
    const port = (server.address() as { port: number }).port;
    const started = Date.now();
    const end = await client({ address: `127.0.0.1:${port}` }).tailLogs('x', { onChunk: () => undefined, keepAliveMs: 100 });
    expect(end).toMatchObject({ kind: 'cut', code: 1006 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('unavailable/timeout when the upgrade is not answered in time', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'true', submission_id: 't9' });
    e.faults.slowAnswers(1_000);
    expect(await c.tailLogs('t9', { onChunk: () => undefined, handshakeTimeoutMs: 100 })).toMatchObject({
      kind: 'unavailable', cause: 'timeout',
    });
  });

  it('delivers a WebSocket to a running job and stays quiet through PENDING', async () => {
    const e = await emulator({ timing: { pendingToRunningMs: 300 } });
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'echo go', submission_id: 't10' });
    const chunks: string[] = [];
    const end = await c.tailLogs('t10', { onChunk: (x) => chunks.push(x) });
    expect(end).toMatchObject({ kind: 'closed', code: 1000 });
    expect(chunks.join('')).toContain('go\n');
    await untilStatus(c, 't10', 'SUCCEEDED');
  });
});

describe('streamLogs', () => {
  it('yields the chunks with for-await and reports the end', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'for i in $(seq 1 15); do echo s$i; done', submission_id: 'it1' });
    const stream = c.streamLogs('it1');
    let text = '';
    for await (const chunk of stream.chunks) text += chunk;
    expect(await stream.end).toMatchObject({ kind: 'closed', code: 1000 });
    expect(text).toContain('s15\n');
    const logs = await c.getLogs('it1');
    expect(logs.kind === 'ok' && logs.value).toBe(text);
  });

  it('ends the tail when the loop is left early', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: longJob, submission_id: 'it2' });
    const stream = c.streamLogs('it2');
    for await (const chunk of stream.chunks) {
      expect(chunk).toContain('started');
      break;
    }
    expect(await stream.end).toMatchObject({ kind: 'aborted' });
  });

  it('passes a handshake failure through as the end', async () => {
    const e = await emulator();
    const stream = client({ address: e.url }).streamLogs('ghost');
    const seen: string[] = [];
    for await (const chunk of stream.chunks) seen.push(chunk);
    expect(seen).toEqual([]);
    expect(await stream.end).toMatchObject({ kind: 'not-found' });
  });
});
