// Throwaway PKI for TLS tests, made with the openssl CLI: a CA, a server certificate for 127.0.0.1 and a
// client certificate (CN=alice), all PEM.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'kube-runtime-pki-'));
  const p = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', p('ca.key'), '-out', p('ca.crt'), '-days', '1', '-subj', '/CN=test-ca');
    writeFileSync(p('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
    for (const [name, subj, ext] of [['server', '/CN=127.0.0.1', p('server.ext')], ['client', '/CN=alice/O=system:masters', undefined]] as const) {
      ssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', p(`${name}.key`), '-out', p(`${name}.csr`), '-subj', subj);
      ssl('x509', '-req', '-in', p(`${name}.csr`), '-CA', p('ca.crt'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p(`${name}.crt`), '-days', '1', ...(ext ? ['-extfile', ext] : []));
    }
    const read = (f: string) => readFileSync(p(f), 'utf8');
    return { ca: read('ca.crt'), serverCert: read('server.crt'), serverKey: read('server.key'), clientCert: read('client.crt'), clientKey: read('client.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
