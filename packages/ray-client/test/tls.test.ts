import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { client, onCleanup } from './support/fixtures.ts';

/** A self-signed certificate for 127.0.0.1, made with openssl at test time. */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ray-client-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

describe('https', () => {
  const pair = selfSigned();

  async function httpsRay(): Promise<string> {
    const server = createServer(pair, (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"version":"4","ray_version":"2.58.0"}');
    });
    const wss = new WebSocketServer({ server, perMessageDeflate: false });
    wss.on('connection', (ws) => {
      ws.send('secure\n');
      ws.close(1000);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onCleanup(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => wss.close(() => server.close(() => r())));
    });
    return `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  it.each([
    ['verification on, unknown CA', {}, 'unavailable'],
    ['verification off', { verify: false }, 'ok'],
    ['the CA given as PEM contents', { ca: pair.cert }, 'ok'],
  ])('%s -> %s', async (_name, tls, kind) => {
    const url = await httpsRay();
    const c = client({ address: url, tls });
    const version = await c.getVersion();
    expect(version.kind).toBe(kind);
    if (version.kind === 'unavailable') expect(version.cause).toBe('tls');
    const chunks: string[] = [];
    const end = await c.tailLogs('x', { onChunk: (x) => chunks.push(x) });
    if (kind === 'ok') {
      expect(end).toMatchObject({ kind: 'closed', code: 1000 });
      expect(chunks).toEqual(['secure\n']);
    } else {
      expect(end).toMatchObject({ kind: 'unavailable', cause: 'tls' });
    }
  });
});
