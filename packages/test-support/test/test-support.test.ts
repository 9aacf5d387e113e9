import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, freePort, tcpOpen, tempDir } from '../src/index.ts';

describe('eventually', () => {
  it('answers the first value that is not undefined, null or false', async () => {
    let n = 0;
    const answers = [undefined, null, false, 'ready'];
    expect(await eventually(() => answers[n++], { what: 'ready', everyMs: 1 })).toBe('ready');
    expect(n).toBe(4);
  });

  it('is bounded: it fails at the deadline naming what it waited for and the last error', async () => {
    const started = Date.now();
    await expect(eventually(() => { throw new Error('boom'); }, { what: 'the thing', withinMs: 50, everyMs: 5 })).rejects.toThrow(/timed out after 50 ms waiting for the thing: Error: boom/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('with retryErrors false, an error ends the wait at once', async () => {
    await expect(eventually(() => { throw new Error('stop'); }, { what: 'x', withinMs: 5_000, retryErrors: false })).rejects.toThrow('stop');
  });
});

describe('ports and directories', () => {
  it('a free port can be listened on, and nothing answers there before', async () => {
    const port = await freePort();
    expect(await tcpOpen(port, 500)).toBe(false);
    const server = createServer();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    expect(await tcpOpen(port, 500)).toBe(true);
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a temporary directory is removed with what is in it', async () => {
    const dir = await tempDir('ts-');
    await writeFile(join(dir.path, 'f'), 'x');
    expect(existsSync(join(dir.path, 'f'))).toBe(true);
    await dir.remove();
    expect(existsSync(dir.path)).toBe(false);
  });
});
