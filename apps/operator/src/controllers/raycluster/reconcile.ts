import {
  autoscalerV1RestartPolicyWarning,
  computeRayClusterStatus,
  headServiceLookupLabels,
  isManagedBy,
  planRayCluster,
  RayClusterSchema,
  validateRayCluster,
  type Pod,
  type RayCluster,
  type RayClusterSettings,
  type ReconcileError,
  type Service,
  type ValidationSettings,
} from '@rayjob/core';
import { describeError, isConflict, type EventRecorder, type Expectations, type KubeClient, type KubeObject, type Logger, type OwnWrites, type ReconcileResult, type StatusWriter } from '@rayjob/kube-runtime';
import { recordRayClusterEvent } from './events.ts';
import { execute } from './execute.ts';
import { reconcileGcsFtFinalizer } from './gcs-ft-finalizer.ts';
import type { RayClusterMetrics } from './metrics.ts';
import { observe, type ObjectView } from './observe.ts';

/**
 * One RayCluster pass, in KubeRay's order (§3): read from the cache, skip clusters another controller manages,
 * validate (an invalid spec only gets an event), observe, plan, execute, compute the status and write it once
 * if it changed; the answer is kube-runtime's ReconcileResult.
 */

/** KubeRay's requeue after an error or a status write. */
export const SHORT_REQUEUE_MS = 2_000;

export interface ReconcileDeps {
  view: ObjectView;
  client: KubeClient;
  /** kube-runtime's status writer for RayClusters (writes only when `rayClusterStatusChanged`). */
  status: StatusWriter;
  /** kube-runtime's event recorder (`raycluster-controller`). */
  events: EventRecorder;
  settings: RayClusterSettings;
  validation: ValidationSettings;
  /** spec.managedBy this operator answers to (an unset value means KubeRay's, which is ours by default). */
  managedBy: string;
  metrics: RayClusterMetrics;
  /** Scale expectations per cluster key (Pods by name), observed from the Pod informers' events. */
  expectations: Expectations;
  now: () => Date;
  randomBytes: (size: number) => Uint8Array;
  /** RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV (300 s). */
  idleRequeueMs: number;
  /** Called with each valid cluster of ours: warns once about features this operator ignores. */
  warnIgnoredFeatures?: (cluster: RayCluster) => void;
  /**
   * The clusters' own writes (status, the GCS FT finalizer) the cache does not show yet (kube-runtime's own
   * writes): Pod events bring a reconcile before the watch brings our write, and deciding from the cached copy
   * would write its diff again from a stale resourceVersion (409, retried 2 s later).
   */
  ownWrites: OwnWrites<KubeObject>;
}

/** The cluster to plan for, or the pass's answer when there is nothing (more) to do. */
async function admit(raw: KubeObject, deps: ReconcileDeps, log: Logger): Promise<{ admitted: true; cluster: RayCluster } | { admitted: false; result: ReconcileResult }> {
  const parsed = RayClusterSchema.safeParse(raw);
  if (!parsed.success) {
    log.error({ issues: parsed.error.issues.slice(0, 3) }, 'RayCluster does not match the schema; not reconciled');
    return { admitted: false, result: undefined };
  }
  const cluster = parsed.data;
  if (!isManagedBy(cluster.spec.managedBy, deps.managedBy)) {
    log.info({ managedBy: cluster.spec.managedBy }, 'Skipping RayCluster managed by a custom controller');
    return { admitted: false, result: undefined };
  }
  const invalid = validateRayCluster(cluster, deps.validation);
  if (invalid) {
    recordRayClusterEvent(deps.events, cluster, invalid);
    return { admitted: false, result: undefined }; // KubeRay: no status write, no requeue until the object changes
  }
  deps.warnIgnoredFeatures?.(cluster);
  const warning = autoscalerV1RestartPolicyWarning(cluster);
  if (warning) recordRayClusterEvent(deps.events, cluster, warning);
  const finalizerPass = await reconcileGcsFtFinalizer(raw, cluster, deps, log);
  if (finalizerPass !== 'proceed') return { admitted: false, result: finalizerPass };
  if (cluster.metadata.deletionTimestamp) {
    log.info('RayCluster is being deleted, just ignore');
    return { admitted: false, result: undefined };
  }
  return { admitted: true, cluster };
}

export async function reconcileRayCluster(namespace: string, name: string, deps: ReconcileDeps, log: Logger): Promise<ReconcileResult> {
  const key = `${namespace}/${name}`;
  const cached = deps.view.cluster(namespace, name);
  if (!cached) {
    deps.ownWrites.forget(key);
    deps.expectations.forget(key);
    deps.metrics.forget(namespace, name);
    return undefined;
  }
  const raw = deps.ownWrites.freshest(cached);
  const admitted = await admit(raw, deps, log);
  if (!admitted.admitted) return admitted.result;
  const { cluster } = admitted;

  const now = deps.now();
  const seen = await observe(cluster, deps);
  if (!seen.ok) return failPass(seen.error, log);
  const created: { pods: Pod[]; headServices: Service[] } = { pods: [], headServices: [] };
  const pending = deps.expectations.pending(key).map((e) => ({ group: e.group, podName: e.name, action: e.action }));
  const plan = planRayCluster({ cluster, ...seen.value, expectations: pending, now }, deps.settings);
  const actionError = await execute(plan.actions, {
    client: deps.client,
    cluster,
    pods: seen.value.pods,
    events: deps.events,
    expect: (e) => {
      const pod = { kind: 'Pod', namespace, name: e.podName };
      if (e.action === 'create') deps.expectations.expectCreate(key, pod, e.group);
      else deps.expectations.expectDelete(key, pod, e.group);
    },
    forgetExpectations: () => deps.expectations.forget(key),
    randomBytes: deps.randomBytes,
    created,
  });
  const reconcileError: ReconcileError | undefined = actionError ?? plan.error;
  if (reconcileError) log.info({ error: reconcileError.message }, 'Reconciliation error');

  // Status from the cache as it is now (our own writes may not be visible yet; the next pass catches up).
  const statusResult = computeRayClusterStatus(
    {
      cluster,
      pods: withCreated(deps.view.pods(namespace, name), created.pods),
      headServices: withCreated(deps.view.servicesByLabels(namespace, headServiceLookupLabels(cluster)), created.headServices),
      reconcileError,
      now: deps.now(),
    },
    deps.settings,
  );
  if (!statusResult.ok) return failPass(statusResult.error, log);
  // Compared with the status as read (parsed); the body is the object as the cache holds it with the new status.
  const written = await deps.status.writeStatus({ ...raw, status: cluster.status } as KubeObject & { status?: unknown }, statusResult.status);
  if (written && !written.ok) {
    if (isConflict(written.error)) return { requeueAfterMs: SHORT_REQUEUE_MS };
    return failPass(`updating the status: ${describeError(written.error)}`, log);
  }
  if (written) deps.ownWrites.wrote(raw, written.value);
  if (written) deps.metrics.observeStatusWrite(cluster, cluster.status, statusResult.status, deps.now());
  return { requeueAfterMs: reconcileError || written ? SHORT_REQUEUE_MS : deps.idleRequeueMs };
}

/** The cached objects plus those this pass created that the cache does not show yet. */
function withCreated<T extends { metadata: { name?: string | undefined } }>(cached: T[], created: T[]): T[] {
  const names = new Set(cached.map((o) => o.metadata.name));
  return [...cached, ...created.filter((o) => !names.has(o.metadata.name))];
}

/** An error pass: logged, then retried after KubeRay's 2 s. */
function failPass(message: string, log: Logger): ReconcileResult {
  log.info({ error: message }, 'RayCluster reconcile did not finish');
  return { requeueAfterMs: SHORT_REQUEUE_MS };
}

export type { RayCluster };
