// The API server's HTTPS port: the same handler as the plain-HTTP one, with a serving certificate from a
// self-signed CA (generated once per process, its ca.crt copied next to each kubeconfig). kubectl and
// client-go send bearer tokens only over TLS, so ServiceAccount tokens and in-cluster clients need this port.
import { X509Certificate } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubernetesServiceIP } from './kubernetes-service.ts';
import { createServingCerts, type ServingCerts } from './serving-certs.ts';

let shared: Promise<ServingCerts> | undefined;

export interface HttpsListener {
  port: number;
  url: string;
  caPath: string;
  close(): Promise<void>;
}

/**
 * Certificates are made once per machine and kept in the temp folder (openssl takes seconds on a loaded machine,
 * and every sandbox start would pay it): a dev-only CA, never trusted by anything but the sandbox's clients.
 */
async function cachedServingCerts(host: string): Promise<ServingCerts> {
  const ips = ['127.0.0.1', kubernetesServiceIP, ...(host === '127.0.0.1' ? [] : [host])];
  const cache = join(tmpdir(), `rayjob-sandbox-serving-certs-${ips.join('_')}`);
  const read = async (dir: string): Promise<ServingCerts> => {
    const [ca, cert, key] = await Promise.all(['ca.crt', 'apiserver.crt', 'apiserver.key'].map((f) => readFile(join(dir, f))));
    return { caPath: join(dir, 'ca.crt'), ca: ca as Buffer, cert: cert as Buffer, key: key as Buffer };
  };
  try {
    const certs = await read(cache);
    if (new X509Certificate(certs.cert).validToDate.getTime() > Date.now() + 86_400_000) return certs;
  } catch {
    // not made yet (or unreadable): make them below
  }
  const fresh = await mkdtemp(join(tmpdir(), 'rayjob-sandbox-certs-'));
  await createServingCerts(fresh, ips);
  await rm(cache, { recursive: true, force: true });
  try {
    await rename(fresh, cache);
    return await read(cache);
  } catch {
    return read(fresh); // another sandbox put its own there meanwhile; use ours
  }
}

export async function startHttpsListener(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  dir: string,
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
  /** PEM of the CA whose client certificates authenticate (kube-apiserver's --client-ca-file). */
  clientCA?: string,
): Promise<HttpsListener> {
  shared ??= cachedServingCerts(host);
  const certs = await shared;
  const caPath = join(dir, 'ca.crt');
  await copyFile(certs.caPath, caPath);
  // Certificates are asked for but not required: a client without one still authenticates with a token. One the CA
  // did not sign is not refused in the handshake either; the request then gets kube-apiserver's 401.
  const clientAuth = clientCA === undefined ? {} : { requestCert: true, rejectUnauthorized: false, ca: clientCA };
  const server = createServer({ cert: certs.cert, key: certs.key, ...clientAuth }, handler);
  if (upgrade !== undefined) server.on('upgrade', upgrade);
  const sockets = new Set<Socket>();
  server.on('secureConnection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url: `https://${host}:${port}`,
    caPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
