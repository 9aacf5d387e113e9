// A self-signed CA and a serving certificate for the API server's HTTPS port, made with the openssl CLI (Node
// can read X.509 but not issue it). The CA goes next to the kubeconfig (ca.crt) so in-cluster clients and
// kubectl can verify the server. The names cover how pods and the host reach it.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ServingCerts {
  caPath: string;
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

export async function createServingCerts(dir: string, ips: string[]): Promise<ServingCerts> {
  const path = (name: string): string => join(dir, name);
  const sans = ['DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc', 'DNS:kubernetes.default.svc.cluster.local', ...ips.map((ip) => `IP:${ip}`)];
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '365', '-subj', '/CN=rayjob-sandbox-ca', '-keyout', path('ca.key'), '-out', path('ca.crt'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=kube-apiserver', '-keyout', path('apiserver.key'), '-out', path('apiserver.csr')]);
  await writeFile(path('apiserver.ext'), `subjectAltName=${sans.join(',')}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n`);
  await run('openssl', ['x509', '-req', '-in', path('apiserver.csr'), '-CA', path('ca.crt'), '-CAkey', path('ca.key'), '-CAcreateserial', '-days', '365', '-extfile', path('apiserver.ext'), '-out', path('apiserver.crt')]);
  const [ca, cert, key] = await Promise.all([readFile(path('ca.crt')), readFile(path('apiserver.crt')), readFile(path('apiserver.key'))]);
  return { caPath: path('ca.crt'), ca, cert, key };
}
