// `kubectl create <generator>` sends built-in kinds as protobuf. Each generator's object, decoded from the
// k8s.io proto descriptors, must be the object kubectl would have sent as JSON (`--dry-run=client -o json`
// piped to `kubectl create -f -`): same spec, same metadata, after the server's defaulting of both.
import { describe, expect, it, vi } from 'vitest';
import { builtinResources } from '../../src/apiserver/builtins/builtins.ts';
import { storedResources } from '../../src/apiserver/builtins/builtins-stored.ts';
import { http, useHarness, type Json } from '../harness.ts';

// Three kubectl runs per test: allow for a loaded shared machine.
vi.setConfig({ testTimeout: 60_000 });

const h = useHarness();

type Gen = { args: (name: string) => string[] };
const generators: Record<string, Gen> = {
  namespace: { args: (n) => ['namespace', n] },
  configmap: { args: (n) => ['configmap', n, '--from-literal=a=b', '--from-literal=c=d'] },
  'secret generic': { args: (n) => ['secret', 'generic', n, '--from-literal=k=v', '--type=Opaque'] },
  'secret docker-registry': { args: (n) => ['secret', 'docker-registry', n, '--docker-server=r.example', '--docker-username=u', '--docker-password=p'] },
  serviceaccount: { args: (n) => ['serviceaccount', n] },
  job: { args: (n) => ['job', n, '--image=busybox', '--', 'sh', '-c', 'echo hi'] },
  cronjob: { args: (n) => ['cronjob', n, '--image=busybox', '--schedule=*/5 * * * *', '--restart=OnFailure', '--', 'date'] },
  deployment: { args: (n) => ['deployment', n, '--image=busybox', '--replicas=0', '--port=8080'] },
  'service clusterip': { args: (n) => ['service', 'clusterip', n, '--tcp=80:8080'] },
  'service nodeport': { args: (n) => ['service', 'nodeport', n, '--tcp=81:8081'] },
  'service externalname': { args: (n) => ['service', 'externalname', n, '--external-name=example.com'] },
  role: { args: (n) => ['role', n, '--verb=get,list', '--resource=pods,jobs.batch'] },
  rolebinding: { args: (n) => ['rolebinding', n, '--role=r', '--serviceaccount=default:sa', '--user=u'] },
  clusterrole: { args: (n) => ['clusterrole', n, '--verb=get', '--non-resource-url=/healthz'] },
  'clusterrole aggregated': { args: (n) => ['clusterrole', n, '--aggregation-rule=rbac.example/aggregate=true'] },
  clusterrolebinding: { args: (n) => ['clusterrolebinding', n, '--clusterrole=view', '--group=devs'] },
  priorityclass: { args: (n) => ['priorityclass', n, '--value=0', '--description=zero', '--preemption-policy=Never'] },
  poddisruptionbudget: { args: (n) => ['poddisruptionbudget', n, '--selector=app=x', '--min-available=0'] },
  quota: { args: (n) => ['quota', n, '--hard=cpu=1,memory=1G,pods=2', '--scopes=BestEffort'] },
  ingress: { args: (n) => ['ingress', n, '--rule=ray.example/dash*=svc:8265,tls=cert', '--class=nginx'] },
};

/** Zeros, false and null as absent: Go omits them for `omitempty` fields and writes null for nil ones, so bodies differ only in that. */
const withoutZeros = (v: Json): Json =>
  Array.isArray(v) ? v.map(withoutZeros) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== 0 && x !== false && x !== null).map(([k, x]) => [k, withoutZeros(x)])) : v;

/** What both paths must agree on: everything but identity, server-set times and the name itself. */
function comparable(obj: Json, name: string): Json {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, managedFields: _m, name: _n, ...meta } = obj.metadata;
  const text = JSON.stringify(withoutZeros({ ...obj, metadata: meta }));
  // Generated names (the job's pod-template label, a Service's selector) embed the object's name.
  return JSON.parse(text.split(obj.metadata.uid).join('UID').split(name).join('NAME').replace(/"clusterIPs?":(\["[^"]*"\]|"[^"]*")/g, '"clusterIP":"X"').replace(/"nodePort":\d+/g, '"nodePort":0'));
}

/** The API path of a built-in object in `default` (or cluster-scoped), as kubectl resolves it from discovery. */
function objectPath(apiVersion: string, kind: string, name: string): string {
  const type = [...builtinResources, ...storedResources].find((r) => r.kind === kind && (r.group === '' ? r.version : `${r.group}/${r.version}`) === apiVersion);
  if (type === undefined) throw new Error(`no built-in resource for ${apiVersion} ${kind}`);
  const base = type.group === '' ? '/api/v1' : `/apis/${type.group}/${type.version}`;
  return `${base}${type.namespaced ? '/namespaces/default' : ''}/${type.plural}/${name}`;
}

describe('kubectl create generators (protobuf request bodies)', () => {
  it.each(Object.keys(generators))('kubectl create %s: the protobuf body decodes to the object kubectl would send as JSON', async (which) => {
    const gen = generators[which] as Gen;
    const slug = which.replace(/\s+/g, '-');
    const viaProto = await h.kubectl(['create', ...gen.args(`p-${slug}`)]);
    expect(viaProto.stderr).toBe('');
    const json = await h.kubectl(['create', '--dry-run=client', '-ojson', ...gen.args(`j-${slug}`)]);
    expect(json.stderr).toBe('');
    expect((await h.kubectl(['create', '-f', '-'], json.stdout)).stderr).toBe('');
    // Both stored objects read back over HTTP, as `kubectl get -o json` would read them (a kubectl process each was
    // two fifths of this file's CPU).
    const sent = JSON.parse(json.stdout) as Json;
    const got = async (name: string): Promise<Json> => {
      const read = await http(h.server, 'GET', objectPath(sent.apiVersion, sent.kind, name));
      expect(read.status).toBe(200);
      return comparable(read.body, name);
    };
    expect(await got(`p-${slug}`)).toEqual(await got(`j-${slug}`));
  });

  it('keeps explicit zeros that mean something (replicas 0, priority value 0, minAvailable 0)', async () => {
    const get = async (args: string[]): Promise<string> => (await h.kubectl(['get', ...args])).stdout;
    expect(await get(['deployment', 'p-deployment', '-o', 'jsonpath={.spec.replicas}'])).toBe('0');
    expect(await get(['priorityclass', 'p-priorityclass', '-o', 'jsonpath={.value}'])).toBe('0');
    expect(await get(['pdb', 'p-poddisruptionbudget', '-o', 'jsonpath={.spec.minAvailable}'])).toBe('0');
  });

  it('a body for a kind no descriptor knows gets 415 naming the way out', async () => {
    const envelope = Buffer.concat([Buffer.from('k8s\0', 'binary'), Buffer.from([0x0a, 0x0e, 0x0a, 0x06, ...Buffer.from('x.io/v'), 0x12, 0x04, ...Buffer.from('Nope')])]);
    const res = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' }, body: envelope });
    expect(res.status).toBe(415);
    expect(((await res.json()) as Json).message).toContain('send it as JSON');
  });
});
