// `kubectl get events` against the sandbox prints what it prints against a real kube-apiserver (1.32, recorded
// 2026-12-06 with the same three events): the server's Table has Last Seen, Type, Reason, Object, Subobject,
// Source, Message, First Seen, Count, Name, of which Subobject, Source, First Seen, Count and Name are wide-only
// (priority 1), with or without `--sort-by` (kubectl then asks for the objects too); the source names the host or
// reporting instance after the component; events.k8s.io/v1 events print the same rows as core ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, type Json } from '../harness.ts';

const h = useHarness();

const minutesAgo = (now: number, minutes: number): string => new Date(now - minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

/** Three events as the reference run had them: a kubelet's with a subobject, a controller's, and an eventTime-only one. */
function events(now: number): string {
  return `apiVersion: v1
kind: Event
metadata: {name: demo.aaa, namespace: default}
involvedObject: {kind: Pod, name: demo, namespace: default, apiVersion: v1, fieldPath: "spec.containers{main}"}
reason: Pulled
message: Container image pulled
type: Normal
source: {component: kubelet, host: node-1}
firstTimestamp: "${minutesAgo(now, 74.1)}"
lastTimestamp: "${minutesAgo(now, 69.1)}"
count: 3
---
apiVersion: v1
kind: Event
metadata: {name: demo.bbb, namespace: default}
involvedObject: {kind: RayCluster, name: rc, namespace: default, apiVersion: ray.io/v1}
reason: CreatedService
message: Created service default/rc-head-svc
type: Normal
source: {component: raycluster-controller}
firstTimestamp: "${minutesAgo(now, 73.1)}"
lastTimestamp: "${minutesAgo(now, 73.1)}"
count: 1
---
apiVersion: v1
kind: Event
metadata: {name: demo.ccc, namespace: default}
involvedObject: {kind: Job, name: j, namespace: default, apiVersion: batch/v1}
reason: Failed
message: something went wrong
type: Warning
eventTime: "${minutesAgo(now, 72.1).replace('Z', '.000000Z')}"
reportingComponent: job-controller
reportingInstance: job-controller-x
action: Sync
`;
}

/** kubectl's table as rows of cells, cut at the header's column starts (a cell may be empty). */
function parseTable(out: string): string[][] {
  const [head = '', ...lines] = out.trimEnd().split('\n');
  const starts = [...head.matchAll(/(?:^|\s{2,})(\S)/g)].map((m) => (m.index ?? 0) + m[0].length - 1);
  return [head, ...lines].map((line) => starts.map((s, i) => line.slice(s, starts[i + 1] ?? line.length).trim()));
}

const HEADER = ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
const ROWS = {
  aaa: ['69m', 'Normal', 'Pulled', 'pod/demo', 'Container image pulled'],
  bbb: ['73m', 'Normal', 'CreatedService', 'raycluster/rc', 'Created service default/rc-head-svc'],
  ccc: ['72m', 'Warning', 'Failed', 'job/j', 'something went wrong'],
};
const WIDE_HEADER = ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'];
const WIDE_ROWS = {
  aaa: ['69m', 'Normal', 'Pulled', 'pod/demo', 'spec.containers{main}', 'kubelet, node-1', 'Container image pulled', '74m', '3', 'demo.aaa'],
  bbb: ['73m', 'Normal', 'CreatedService', 'raycluster/rc', '', 'raycluster-controller', 'Created service default/rc-head-svc', '73m', '1', 'demo.bbb'],
  ccc: ['72m', 'Warning', 'Failed', 'job/j', '', 'job-controller, job-controller-x', 'something went wrong', '72m', '1', 'demo.ccc'],
};

describe('kubectl get events prints the real kube-apiserver\'s columns', () => {
  beforeAll(async () => {
    const created = await h.kubectl(['apply', '-f', '-'], events(Date.now()));
    expect(created.stderr).toBe('');
  });

  it.each(([
    { args: ['get', 'events'], header: HEADER, rows: [ROWS.aaa, ROWS.bbb, ROWS.ccc] },
    { args: ['get', 'events', '--sort-by=.lastTimestamp'], header: HEADER, rows: [ROWS.ccc, ROWS.bbb, ROWS.aaa] },
    { args: ['get', 'events', '-o', 'wide'], header: WIDE_HEADER, rows: [WIDE_ROWS.aaa, WIDE_ROWS.bbb, WIDE_ROWS.ccc] },
    { args: ['get', 'events', '-o', 'wide', '--sort-by=.lastTimestamp'], header: WIDE_HEADER, rows: [WIDE_ROWS.ccc, WIDE_ROWS.bbb, WIDE_ROWS.aaa] },
    { args: ['get', 'events.v1.events.k8s.io'], header: HEADER, rows: [ROWS.aaa, ROWS.bbb, ROWS.ccc] },
    { args: ['get', 'events.v1.events.k8s.io', '-o', 'wide'], header: WIDE_HEADER, rows: [WIDE_ROWS.aaa, WIDE_ROWS.bbb, WIDE_ROWS.ccc] },
  ]).map((c) => ({ ...c, line: c.args.join(' ') })))('kubectl $line', async ({ args, header, rows }) => {
    const out = await h.kubectl(args);
    expect(out.stderr).toBe('');
    expect(parseTable(out.stdout)).toEqual([header, ...rows]);
  });

  it.each(['/api/v1/namespaces/default/events', '/apis/events.k8s.io/v1/namespaces/default/events'])('%s as a Table: the reference\'s column definitions', async (path) => {
    const res = await fetch(`${h.server.url}${path}?includeObject=Object`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    const table: Json = await res.json();
    expect(table.columnDefinitions.map((c: Json) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Last Seen', 'string', '', 0], ['Type', 'string', '', 0], ['Reason', 'string', '', 0], ['Object', 'string', '', 0],
      ['Subobject', 'string', '', 1], ['Source', 'string', '', 1], ['Message', 'string', '', 0], ['First Seen', 'string', '', 1],
      ['Count', 'string', '', 1], ['Name', 'string', 'name', 1],
    ]);
    expect(table.rows[0].cells).toEqual(['69m', 'Normal', 'Pulled', 'pod/demo', 'spec.containers{main}', 'kubelet, node-1', 'Container image pulled', '74m', 3, 'demo.aaa']);
  });
});
