import { describe, expect, it } from 'vitest';
import { resolveClusterName } from '../../src/dns/cluster-records.ts';
import type { ClusterView } from '../../src/dns/cluster-records.ts';
import { buildQuery, buildResponse, parseAnswers, parseQuery, recordTypes } from '../../src/dns/dns-wire.ts';
import { clusterFqdn } from '../../src/dns/host-lookup.ts';
import { desiredSubsets } from '../../src/dns/endpoints-controller.ts';
import type { Endpoints, Pod, Service } from '../../src/kube-objects/types.ts';

const services: Record<string, Service> = {
  'ns/web': { metadata: { name: 'web', namespace: 'ns' }, spec: { selector: { app: 'web' } } },
  'ns/empty': { metadata: { name: 'empty', namespace: 'ns' }, spec: {} },
};
const endpoints: Record<string, Endpoints> = {
  'ns/web': { metadata: { name: 'web', namespace: 'ns' }, subsets: [{ addresses: [{ ip: '10.244.1.2', hostname: 'w0' }, { ip: '10.244.1.3' }] }] },
};
const view: ClusterView = {
  service: (ns, name) => services[`${ns}/${name}`],
  endpoints: (ns, name) => endpoints[`${ns}/${name}`],
  namespaceExists: (ns) => ns === 'ns',
};

describe('resolveClusterName', () => {
  it.each([
    ['web.ns.svc.cluster.local', { kind: 'found', addresses: ['10.244.1.2', '10.244.1.3'] }],
    ['WEB.ns.svc.cluster.local.', { kind: 'found', addresses: ['10.244.1.2', '10.244.1.3'] }],
    ['w0.web.ns.svc.cluster.local', { kind: 'found', addresses: ['10.244.1.2'] }],
    ['empty.ns.svc.cluster.local', { kind: 'nodata' }],
    ['nope.ns.svc.cluster.local', { kind: 'nxdomain' }],
    ['web.ns.ns.svc.cluster.local', { kind: 'nxdomain' }],
    ['ns.svc.cluster.local', { kind: 'nodata' }],
    ['10-1-2-3.ns.pod.cluster.local', { kind: 'found', addresses: ['10.1.2.3'] }],
    ['example.com', { kind: 'outside' }],
  ])('%s', (name, expected) => {
    expect(resolveClusterName(view, name, 'cluster.local')).toEqual(expected);
  });
});

describe('DNS wire format', () => {
  it('answers an A query with records a parser reads back', () => {
    const parsed = parseQuery(buildQuery(7, 'web.ns.svc.cluster.local'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.question).toMatchObject({ id: 7, name: 'web.ns.svc.cluster.local', type: recordTypes.A });
    expect(parseAnswers(buildResponse(parsed.question, 0, ['10.0.0.1', '10.0.0.2']))).toEqual({ rcode: 0, addresses: ['10.0.0.1', '10.0.0.2'] });
  });
  it('answers AAAA with no records (NODATA), so resolvers fall back to A quickly', () => {
    const parsed = parseQuery(buildQuery(8, 'web', recordTypes.AAAA));
    if (!parsed.ok) throw new Error('parse');
    expect(parseAnswers(buildResponse(parsed.question, 0, ['10.0.0.1']))).toEqual({ rcode: 0, addresses: [] });
  });
  it('rejects a truncated message', () => {
    expect(parseQuery(Buffer.from([1, 2, 3])).ok).toBe(false);
  });
});

describe('clusterFqdn', () => {
  it.each([
    ['web.ns.svc', 'web.ns.svc.cluster.local'],
    ['web.ns.svc.cluster.local', 'web.ns.svc.cluster.local'],
    ['example.com', undefined],
    ['localhost', undefined],
  ])('%s', (name, fqdn) => { expect(clusterFqdn(name, 'cluster.local')).toBe(fqdn); });
});

describe('desiredSubsets', () => {
  const pod = (name: string, ip: string, ready: boolean, extra: Partial<Pod['metadata']> = {}): Pod => ({
    metadata: { name, namespace: 'ns', uid: name, labels: { app: 'web' }, ...extra },
    spec: { containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
  const service: Service = { metadata: { name: 'web', namespace: 'ns' }, spec: { selector: { app: 'web' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] } };
  it('splits ready and not-ready pods, skips terminating ones, resolves named target ports', () => {
    const subsets = desiredSubsets(service, [pod('a', '10.0.0.2', true), pod('b', '10.0.0.3', false), pod('c', '10.0.0.4', true, { deletionTimestamp: '2026-01-01T00:00:00Z' })]);
    expect(subsets).toHaveLength(1);
    expect(subsets[0]?.addresses?.map((a) => a.ip)).toEqual(['10.0.0.2']);
    expect(subsets[0]?.notReadyAddresses?.map((a) => a.ip)).toEqual(['10.0.0.3']);
    expect(subsets[0]?.ports).toEqual([{ name: 'web', port: 8080, protocol: 'TCP' }]);
  });
  it('publishNotReadyAddresses puts every pod in addresses', () => {
    const subsets = desiredSubsets({ ...service, spec: { ...service.spec, publishNotReadyAddresses: true } }, [pod('b', '10.0.0.3', false)]);
    expect(subsets[0]?.addresses?.map((a) => a.ip)).toEqual(['10.0.0.3']);
  });
});
