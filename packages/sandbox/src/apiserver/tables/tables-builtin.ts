// Printer columns for the built-in kinds, matching what kubectl shows against a real cluster.
import type { KubeObject } from '../../store/types.ts';
import { ageOf, humanDuration } from './age.ts';
import type { ColumnDefinition, TableShape } from '../registry/resource-types.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export const col = (name: string, priority = 0, type = 'string', format = ''): ColumnDefinition => ({
  name,
  type,
  format,
  description: name === 'Name' ? 'Name must be unique within a namespace.' : name,
  priority,
});

const nameCol = col('Name', 0, 'string', 'name');
const ageCol = col('Age');
const age = (obj: KubeObject, now: number): string => ageOf(obj.metadata.creationTimestamp, now);

export const defaultTable: TableShape = {
  columns: [nameCol, { ...ageCol, description: 'Time since creation' }],
  cells: (obj, now) => [obj.metadata.name, age(obj, now)],
};

/** kubectl's pod STATUS: the most specific reason among pod, init and app containers. */
export function podStatusReason(pod: KubeObject): string {
  const status = o(pod.status);
  let reason = (status.reason as string) || (status.phase as string) || 'Pending';
  const initStatuses = arr(status.initContainerStatuses);
  const initCount = arr(o(pod.spec).initContainers).length;
  let initializing = false;
  initStatuses.forEach((cs, i) => {
    if (initializing) return;
    const st = o(cs.state);
    const term = o(st.terminated);
    const wait = o(st.waiting);
    if (st.terminated && term.exitCode === 0) return;
    if (st.terminated) {
      reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
    } else if (st.waiting && wait.reason && wait.reason !== 'PodInitializing') {
      reason = `Init:${wait.reason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    initializing = true;
  });
  if (!initializing) {
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i] as Obj;
      const st = o(cs.state);
      const wait = o(st.waiting);
      const term = o(st.terminated);
      if (wait.reason) reason = wait.reason as string;
      else if (term.reason) reason = term.reason as string;
      else if (st.terminated) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (cs.ready && st.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = 'Running';
  }
  if (pod.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

export const podTable: TableShape = {
  columns: [nameCol, col('Ready'), col('Status'), col('Restarts', 0, 'string'), ageCol, col('IP', 1), col('Node', 1), col('Nominated Node', 1), col('Readiness Gates', 1)],
  cells: (pod, now) => {
    const status = o(pod.status);
    const statuses = arr(status.containerStatuses);
    const total = arr(o(pod.spec).containers).length;
    const ready = statuses.filter((s) => s.ready === true).length;
    const restarts = statuses.reduce((n, s) => n + (typeof s.restartCount === 'number' ? s.restartCount : 0), 0);
    const gates = arr(o(pod.spec).readinessGates);
    return [
      pod.metadata.name,
      `${ready}/${total}`,
      podStatusReason(pod),
      String(restarts),
      age(pod, now),
      (status.podIP as string) || '<none>',
      (o(pod.spec).nodeName as string) || '<none>',
      (status.nominatedNodeName as string) || '<none>',
      gates.length === 0 ? '<none>' : `0/${gates.length}`,
    ];
  },
};

const hasCond = (obj: KubeObject, type: string): boolean =>
  arr(o(obj.status).conditions).some((c) => c.type === type && c.status === 'True');

export function jobStatus(job: KubeObject): string {
  if (hasCond(job, 'Failed')) return 'Failed';
  if (hasCond(job, 'Complete')) return 'Complete';
  if (hasCond(job, 'Suspended')) return 'Suspended';
  if (hasCond(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCond(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  return 'Running';
}

const containersOf = (template: unknown): Obj[] => arr(o(o(template).spec).containers);

export const jobTable: TableShape = {
  columns: [nameCol, col('Status'), col('Completions'), col('Duration'), ageCol, col('Containers', 1), col('Images', 1), col('Selector', 1)],
  cells: (job, now) => {
    const spec = o(job.spec);
    const status = o(job.status);
    const completions = typeof spec.completions === 'number' ? spec.completions : 1;
    const start = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
    const end = typeof status.completionTime === 'string' ? Date.parse(status.completionTime) : now;
    const selector = o(o(spec.selector).matchLabels);
    return [
      job.metadata.name,
      jobStatus(job),
      `${(status.succeeded as number) ?? 0}/${completions}`,
      Number.isNaN(start) ? '' : humanDuration(end - start),
      age(job, now),
      containersOf(spec.template).map((c) => c.name).join(','),
      containersOf(spec.template).map((c) => c.image).join(','),
      Object.entries(selector).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>',
    ];
  },
};

export const deploymentTable: TableShape = {
  columns: [nameCol, col('Ready'), col('Up-to-date'), col('Available'), ageCol, col('Containers', 1), col('Images', 1), col('Selector', 1)],
  cells: (d, now) => {
    const spec = o(d.spec);
    const status = o(d.status);
    const selector = o(o(spec.selector).matchLabels);
    return [
      d.metadata.name,
      `${(status.readyReplicas as number) ?? 0}/${(spec.replicas as number) ?? 1}`,
      String((status.updatedReplicas as number) ?? 0),
      String((status.availableReplicas as number) ?? 0),
      age(d, now),
      containersOf(spec.template).map((c) => c.name).join(','),
      containersOf(spec.template).map((c) => c.image).join(','),
      Object.entries(selector).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>',
    ];
  },
};

export const replicaSetTable: TableShape = {
  columns: [nameCol, col('Desired', 0, 'integer'), col('Current', 0, 'integer'), col('Ready', 0, 'integer'), ageCol, col('Containers', 1), col('Images', 1), col('Selector', 1)],
  cells: (rs, now) => {
    const spec = o(rs.spec);
    const status = o(rs.status);
    const selector = o(o(spec.selector).matchLabels);
    return [
      rs.metadata.name,
      (spec.replicas as number) ?? 1,
      (status.replicas as number) ?? 0,
      (status.readyReplicas as number) ?? 0,
      age(rs, now),
      containersOf(spec.template).map((c) => c.name).join(','),
      containersOf(spec.template).map((c) => c.image).join(','),
      Object.entries(selector).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>',
    ];
  },
};

export const namespaceTable: TableShape = {
  columns: [nameCol, col('Status'), ageCol],
  cells: (ns, now) => [ns.metadata.name, (o(ns.status).phase as string) ?? 'Active', age(ns, now)],
};

export const nodeTable: TableShape = {
  columns: [nameCol, col('Status'), col('Roles'), ageCol, col('Version'), col('Internal-IP', 1)],
  cells: (node, now) => {
    const ready = arr(o(node.status).conditions).find((c) => c.type === 'Ready');
    const roles = Object.keys(node.metadata.labels ?? {})
      .filter((k) => k.startsWith('node-role.kubernetes.io/'))
      .map((k) => k.slice('node-role.kubernetes.io/'.length));
    const ip = arr(o(node.status).addresses).find((a) => a.type === 'InternalIP');
    return [
      node.metadata.name,
      ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown',
      roles.join(',') || '<none>',
      age(node, now),
      (o(o(node.status).nodeInfo).kubeletVersion as string) ?? '',
      (ip?.address as string) ?? '<none>',
    ];
  },
};

export const serviceTable: TableShape = {
  columns: [nameCol, col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), ageCol, col('Selector', 1)],
  cells: (svc, now) => {
    const spec = o(svc.spec);
    const ports = arr(spec.ports).map((p) => `${String(p.port)}${p.nodePort ? `:${String(p.nodePort)}` : ''}/${(p.protocol as string) ?? 'TCP'}`);
    const selector = o(spec.selector);
    return [
      svc.metadata.name,
      (spec.type as string) ?? 'ClusterIP',
      (spec.clusterIP as string) ?? '<none>',
      '<none>',
      ports.join(',') || '<none>',
      age(svc, now),
      Object.entries(selector).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>',
    ];
  },
};

export const endpointsTable: TableShape = {
  columns: [nameCol, col('Endpoints'), ageCol],
  cells: (ep, now) => {
    const parts: string[] = [];
    for (const subset of arr(ep.subsets)) {
      for (const a of arr(subset.addresses)) for (const p of arr(subset.ports)) parts.push(`${String(a.ip)}:${String(p.port)}`);
    }
    return [ep.metadata.name, parts.join(',') || '<none>', age(ep, now)];
  },
};

export const configMapTable: TableShape = {
  columns: [nameCol, col('Data', 0, 'integer'), ageCol],
  cells: (cm, now) => [cm.metadata.name, Object.keys(o(cm.data)).length + Object.keys(o(cm.binaryData)).length, age(cm, now)],
};

export const secretTable: TableShape = {
  columns: [nameCol, col('Type'), col('Data', 0, 'integer'), ageCol],
  cells: (s, now) => [s.metadata.name, (s.type as string) ?? 'Opaque', Object.keys(o(s.data)).length, age(s, now)],
};

export const serviceAccountTable: TableShape = {
  columns: [nameCol, col('Secrets', 0, 'integer'), ageCol],
  cells: (sa, now) => [sa.metadata.name, arr(sa.secrets).length, age(sa, now)],
};

/** kube-apiserver's "component, instance" (either from the old source or the reporting fields). */
function eventSource(ev: KubeObject): string {
  const source = o(ev.source);
  const component = (source.component as string) || (ev.reportingComponent as string) || '';
  const instance = (source.host as string) || (ev.reportingInstance as string) || '';
  return instance === '' ? component : `${component}, ${instance}`;
}

/**
 * A core/v1 Event's row, as kube-apiserver prints it: first seen falls back to eventTime, last seen to first seen,
 * a series gives last seen and count. Subobject, Source, First Seen, Count and Name are wide-only (priority 1).
 */
export const eventTable: TableShape = {
  columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), col('Subobject', 1), col('Source', 1), col('Message'), col('First Seen', 1), col('Count', 1), { ...nameCol, priority: 1 }],
  cells: (ev, now) => {
    const inv = o(ev.involvedObject);
    const series = ev.series === undefined || ev.series === null ? undefined : o(ev.series);
    const first = ageOf(ev.firstTimestamp ?? ev.eventTime, now);
    const last = series ? ageOf(series.lastObservedTime, now) : ev.lastTimestamp ? ageOf(ev.lastTimestamp, now) : first;
    const kind = String(inv.kind ?? '').toLowerCase();
    return [
      last,
      ev.type ?? '',
      ev.reason ?? '',
      inv.name ? `${kind}/${String(inv.name)}` : kind,
      (inv.fieldPath as string) ?? '',
      eventSource(ev),
      String(ev.message ?? '').trim(),
      first,
      (series ? series.count : ev.count) || 1,
      ev.metadata.name,
    ];
  },
};

export const leaseTable: TableShape = {
  columns: [nameCol, col('Holder'), ageCol],
  cells: (l, now) => [l.metadata.name, (o(l.spec).holderIdentity as string) ?? '', age(l, now)],
};

export const createdAtTable: TableShape = {
  columns: [nameCol, col('Created At', 0, 'date')],
  cells: (obj) => [obj.metadata.name, obj.metadata.creationTimestamp],
};
