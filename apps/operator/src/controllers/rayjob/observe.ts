import {
  clusterHeadServiceName,
  needsDashboardQuery,
  needsDriverNodeCheck,
  rayJobHeadServiceName,
  type DashboardObservation,
  type DecisionInput,
  type DecisionSettings,
  type DriverNodeObservation,
  type OperatorMemory,
  type RayCluster,
  type RayJob,
  type K8sJob,
  type Pod,
  type Service,
} from '@rayjob/core';
import type { DashboardClients } from './dashboards.ts';
import { driverCheckDue } from './node-check-plan.ts';
import type { NodeTables } from './node-tables.ts';

/** The kinds the RayJob controller reads; every read after sync comes from the informers' cache. */
export interface ObjectView {
  rayJob(namespace: string, name: string): RayJob | undefined;
  rayCluster(namespace: string, name: string): RayCluster | undefined;
  service(namespace: string, name: string): Service | undefined;
  job(namespace: string, name: string): K8sJob | undefined;
  pods(namespace: string, labels: Readonly<Record<string, string>>): Pod[];
}

/** The RayCluster, submitter Job or Service the RayJob controller creates, as the cache shows it now. */
export function cachedObject(view: ObjectView, ref: { kind: string; namespace: string; name: string }): RayCluster | K8sJob | Service | undefined {
  if (ref.kind === 'RayCluster') return view.rayCluster(ref.namespace, ref.name);
  if (ref.kind === 'Job') return view.job(ref.namespace, ref.name);
  return ref.kind === 'Service' ? view.service(ref.namespace, ref.name) : undefined;
}

/** True when `obj` carries a controller ownerReference to this RayJob (so it is ours to use). */
export function ownedBy(obj: { metadata: { ownerReferences?: Array<{ uid?: string | undefined; controller?: boolean | undefined }> | undefined } }, owner: { metadata: { uid?: string | undefined } }): boolean {
  const uid = owner.metadata.uid;
  return !!uid && (obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.controller === true);
}

export interface ObserveDeps {
  view: ObjectView;
  dashboards: DashboardClients;
  nodeTables: NodeTables;
  settings: DecisionSettings;
  /** The job's log tail is followed (open or being opened). */
  tailOpen: boolean;
}

/**
 * Everything core.decide reads about one RayJob: cached objects (its RayCluster, the cluster's head Service and
 * head pods, the RayJob head Service, the submitter Job and its pods), and — only when core says the decision
 * needs them — the job's status from the dashboard and the driver node's liveness.
 * Objects that carry the right name but are not owned by this RayJob are not ours and are left out (creating
 * them then fails clearly instead of adopting a stranger's object).
 */
export async function observe(rayJob: RayJob, memory: OperatorMemory, deps: ObserveDeps, now: Date, random: () => number): Promise<DecisionInput> {
  const { view } = deps;
  const ns = rayJob.metadata.namespace ?? 'default';
  const name = rayJob.metadata.name ?? '';
  const status = rayJob.status ?? {};
  const selectorMode = Object.keys(rayJob.spec.clusterSelector ?? {}).length > 0;
  const clusterName = status.rayClusterName;
  const candidate = clusterName ? view.rayCluster(ns, clusterName) : undefined;
  const cluster = candidate && (selectorMode || ownedBy(candidate, rayJob)) ? candidate : undefined;
  const clusterHeadService = cluster ? view.service(ns, clusterHeadServiceName(cluster)) : undefined;
  const ownHeadService = view.service(ns, rayJobHeadServiceName(rayJob));
  const jobCandidate = view.job(ns, name);
  const submitterJob = jobCandidate && ownedBy(jobCandidate, rayJob) ? jobCandidate : undefined;
  const submitterPods = submitterJob ? view.pods(ns, { 'job-name': name }).filter((p) => ownedBy(p, submitterJob)) : [];
  const headPods = cluster && clusterName ? view.pods(ns, { 'ray.io/cluster': clusterName, 'ray.io/node-type': 'head' }) : [];
  const remote = await observeDashboard(rayJob, memory, cluster, deps, (lastAskedAgoMs) =>
    driverCheckDue({ rayJob, memory, settings: deps.settings, submitterJob, submitterPods, headPods, tailOpen: deps.tailOpen, lastAskedAgoMs }));
  return {
    rayJob,
    cluster,
    clusterHeadService,
    rayJobHeadService: ownHeadService && ownedBy(ownHeadService, rayJob) ? ownHeadService : undefined,
    submitterJob,
    submitterPods,
    headPods,
    dashboard: remote.dashboard,
    driverNode: remote.driverNode,
    memory,
    settings: deps.settings,
    now,
    random,
  };
}

interface RemoteObservation {
  dashboard: DashboardObservation;
  driverNode: DriverNodeObservation;
}

const notAsked: RemoteObservation = { dashboard: { kind: 'not-queried' }, driverNode: { kind: 'not-checked' } };

async function observeDashboard(
  rayJob: RayJob,
  memory: OperatorMemory,
  cluster: RayCluster | undefined,
  deps: ObserveDeps,
  checkDue: (lastAskedAgoMs: number | undefined) => boolean,
): Promise<RemoteObservation> {
  // Memory says when a terminal RayJob's Ray job is settled (addition C): only then is the dashboard left alone.
  if (!needsDashboardQuery(rayJob, memory) || !cluster) return notAsked;
  const jobId = rayJob.status?.jobId ?? '';
  const access = await deps.dashboards.clientFor(cluster, rayJob.status?.dashboardURL ?? '');
  if (!access.ok) return { dashboard: { kind: 'unreachable', reason: access.message }, driverNode: { kind: 'not-checked' } };
  const answer = await access.client.getJob(jobId);
  switch (answer.kind) {
    case 'ok': {
      const job = answer.value;
      const info = {
        status: job.status,
        message: job.message ?? undefined,
        startTime: job.start_time ?? undefined,
        endTime: job.end_time ?? undefined,
        driverNodeId: job.driver_node_id || undefined,
      };
      const clusterKey = cluster.metadata.uid ?? access.client.baseUrl;
      const driverNode: DriverNodeObservation = needsDriverNodeCheck(info) && checkDue(deps.nodeTables.askedAgoMs(clusterKey))
        ? await deps.nodeTables.driverNode(clusterKey, access.client, info.driverNodeId)
        : { kind: 'not-checked' };
      return { dashboard: { kind: 'found', info }, driverNode };
    }
    case 'not-found':
      return { dashboard: { kind: 'not-found' }, driverNode: { kind: 'not-checked' } };
    default:
      return { dashboard: { kind: 'unreachable', reason: `${answer.kind}: ${answer.message}` }, driverNode: { kind: 'not-checked' } };
  }
}
