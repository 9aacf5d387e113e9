import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryClusterDns } from '../../src/dns/host-lookup.ts';
import { resources } from '@rayjob/kube-runtime';
import type { Endpoints, Pod } from '../../src/kube-objects/types.ts';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { createPod, startHarness, waitFor, waitForPhase } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

let h: Harness;
let web: Pod;
let notReady: Pod;

beforeAll(async () => {
  h = await startHarness();
  await createPod(h.client, { metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'node', ports: [{ name: 'http', containerPort: 8080 }],
    args: ['-e', "require('http').createServer((q, s) => s.end('hello from web')).listen(8080)"] }] } });
  await createPod(h.client, { metadata: { name: 'nr', labels: { app: 'nr' } }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'],
    readinessProbe: { exec: { command: ['false'] }, periodSeconds: 1 } }] } });
  await h.client.create(resources.services, { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 8080, targetPort: 'http' }] } }, { namespace: 'default' });
  await h.client.create(resources.services, { metadata: { name: 'nr-headless' }, spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { app: 'nr' }, ports: [{ port: 80 }] } }, { namespace: 'default' });
  await h.client.create(resources.services, { metadata: { name: 'nr-strict' }, spec: { clusterIP: 'None', selector: { app: 'nr' }, ports: [{ port: 80 }] } }, { namespace: 'default' });
  web = await waitForPhase(h.client, 'web', ['Running']);
  notReady = await waitForPhase(h.client, 'nr', ['Running']);
  await waitFor('web endpoints', async () => {
    const ep = await h.client.get<Endpoints>(resources.endpoints, { namespace: 'default', name: 'web' });
    return ep.ok && (ep.value.subsets?.[0]?.addresses?.length ?? 0) > 0 ? true : undefined;
  });
});
afterAll(async () => { await h.stop(); });

async function runClient(name: string, image: string, args: string[]): Promise<string> {
  await createPod(h.client, { metadata: { name }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image, command: args }] } });
  const pod = await waitForPhase(h.client, name, ['Succeeded', 'Failed'], 'default', 20_000);
  const out = readFileSync(podLogPath(h.dir, 'default', name, 'main'), 'utf8');
  if (pod.status?.phase !== 'Succeeded') throw new Error(`${name} failed: ${out}`);
  return out;
}

describe('cluster DNS', () => {
  it('the endpoints controller lists ready pods in addresses with resolved named ports', async () => {
    const ep = await h.client.get<Endpoints>(resources.endpoints, { namespace: 'default', name: 'web' });
    expect(ep.ok && ep.value.subsets).toEqual([{ addresses: [expect.objectContaining({ ip: web.status?.podIP, targetRef: expect.objectContaining({ name: 'web' }) })], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }]);
  });

  it('a not-ready pod is in notReadyAddresses, or in addresses with publishNotReadyAddresses', async () => {
    const strict = await waitFor('nr-strict endpoints', async () => { const e = await h.client.get<Endpoints>(resources.endpoints, { namespace: 'default', name: 'nr-strict' }); return e.ok && e.value.subsets?.length ? e.value : undefined; });
    expect(strict.subsets?.[0]?.notReadyAddresses?.map((a) => a.ip)).toEqual([notReady.status?.podIP]);
    expect(strict.subsets?.[0]?.addresses).toBeUndefined();
    const server = { host: h.node.dns.host, port: h.node.dns.port, clusterDomain: 'cluster.local' };
    expect(await waitFor('published', async () => { const a = await queryClusterDns(server, 'nr-headless.default.svc.cluster.local'); return a.length ? a : undefined; })).toEqual([notReady.status?.podIP]);
    expect(await queryClusterDns(server, 'nr-strict.default.svc.cluster.local')).toEqual([]);
  });

  it.each([
    { tool: 'node', image: 'node', args: [process.execPath, '-e', "fetch('http://web:8080/').then(r => r.text()).then(t => console.log(t))"] },
    { tool: 'python', image: 'python', args: ['python3', '-c', "import urllib.request; print(urllib.request.urlopen('http://web.default:8080/', timeout=5).read().decode())"] },
    { tool: 'getent', image: 'busybox', args: ['sh', '-c', 'getent hosts web.default.svc.cluster.local | cut -d" " -f1 | tr -d "\\n"; echo " from web"'] },
  ])('resolves service names from a pod with $tool (search domains included)', async ({ tool, image, args }) => {
    const out = await runClient(`dns-${tool}`, image, args);
    expect(out.trim()).toBe(tool === 'getent' ? `${web.status?.podIP} from web` : 'hello from web');
  });

  it('resolves <ip-dashed>.<ns>.pod names and answers NXDOMAIN for unknown services', async () => {
    const server = { host: h.node.dns.host, port: h.node.dns.port, clusterDomain: 'cluster.local' };
    expect(await queryClusterDns(server, '10-244-9-9.default.pod.cluster.local')).toEqual(['10.244.9.9']);
    expect(await queryClusterDns(server, 'nope.default.svc.cluster.local')).toEqual([]);
  });

  it('lets a host-side client reach a service through the lookup hook, without /etc/hosts', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: 'web.default.svc', port: 8080, path: '/', lookup: h.node.lookup as never }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(body).toBe('hello from web');
  });
});
