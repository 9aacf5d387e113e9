import {
  autoscalerRoleName,
  autoscalerServiceAccountName,
  autoscalerV1RestartPolicyWarning,
  clusterAuthSecretName,
  isAutoscalingEnabled,
  isManagedBy,
  computeRayClusterStatus,
  headServiceLookupLabels,
  headlessWorkerServiceName,
  needsAuthSecret,
  planRayCluster,
  rayClusterLabelKeys,
  rayClusterStatusChanged,
  RayClusterSchema,
  serveServiceName,
  validateRayCluster,
  type Pod,
  type AutoscalerRbacObservation,
  type RayCluster,
  type RayClusterSettings,
  type ReconcileError,
  type Service,
  type ValidationSettings,
} from '@rayjob/core';
import { describeError, isConflict, isNotFound, resources, type Expectations, type KubeClient, type KubeObject, type Logger, type ReconcileResult } from '@rayjob/kube-runtime';
import type { RecordEvent } from './events.ts';
import { executeActions } from './execute.ts';
import { reconcileGcsFtFinalizer } from './gcs-ft-finalizer.ts';
import type { RayClusterMetrics } from './metrics.ts';

/**
 * One RayCluster pass, in KubeRay's order (§3): read from the cache, skip clusters another controller manages,
 * validate (an invalid spec only gets an event), plan, act, compute the status and write it once if it changed.
 */

/** KubeRay's requeue after an error or a status write. */
export const SHORT_REQUEUE_MS = 2_000;

export interface ClusterCaches {
  cluster(namespace: string, name: string): KubeObject | undefined;
  /** Pods labelled with the cluster's name in its namespace. */
  pods(namespace: string, clusterName: string): Pod[];
  servicesByLabels(namespace: string, labels: Record<string, string>): Service[];
  service(namespace: string, name: string): Service | undefined;
}

export interface ReconcileDeps {
  client: KubeClient;
  caches: ClusterCaches;
  settings: RayClusterSettings;
  validation: ValidationSettings;
  /** spec.managedBy this operator answers to (an unset value means KubeRay's, which is ours by default). */
  managedBy: string;
  record: RecordEvent;
  metrics: RayClusterMetrics;
  /** Scale expectations per cluster key (Pods by name), observed from the Pod informers' events. */
  expectations: Expectations;
  now: () => Date;
  randomBytes: (size: number) => Uint8Array;
  /** RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV (300 s). */
  idleRequeueMs: number;
  /** Called with each valid cluster of ours: warns once about features this operator ignores. */
  warnIgnoredFeatures?: (cluster: RayCluster) => void;
}

export async function reconcileRayCluster(namespace: string, name: string, deps: ReconcileDeps, log: Logger): Promise<ReconcileResult> {
  const key = `${namespace}/${name}`;
  const raw = deps.caches.cluster(namespace, name);
  if (!raw) {
    deps.expectations.forget(key);
    deps.metrics.forget(namespace, name);
    return undefined;
  }
  const parsed = RayClusterSchema.safeParse(raw);
  if (!parsed.success) {
    log.error({ issues: parsed.error.issues.slice(0, 3) }, 'RayCluster does not match the schema; not reconciled');
    return undefined;
  }
  const cluster = parsed.data;
  if (!isManagedBy(cluster.spec.managedBy, deps.managedBy)) {
    log.info({ managedBy: cluster.spec.managedBy }, 'Skipping RayCluster managed by a custom controller');
    return undefined;
  }
  const invalid = validateRayCluster(cluster, deps.validation);
  if (invalid) {
    deps.record({ namespace, name, uid: cluster.metadata.uid, resourceVersion: cluster.metadata.resourceVersion }, invalid);
    return undefined; // KubeRay: no status write, no requeue until the object changes
  }
  deps.warnIgnoredFeatures?.(cluster);
  const warning = autoscalerV1RestartPolicyWarning(cluster);
  if (warning) deps.record({ namespace, name, uid: cluster.metadata.uid, resourceVersion: cluster.metadata.resourceVersion }, warning);
  const finalizerPass = await reconcileGcsFtFinalizer(raw, cluster, deps, log);
  if (finalizerPass !== 'proceed') return finalizerPass;
  if (cluster.metadata.deletionTimestamp) {
    log.info('RayCluster is being deleted, just ignore');
    return undefined;
  }

  const now = deps.now();
  const pods = deps.caches.pods(namespace, name);
  const headServices = deps.caches.servicesByLabels(namespace, headServiceLookupLabels(cluster));
  let authSecretExists = true;
  if (needsAuthSecret(cluster)) {
    const secret = await deps.client.get(resources.secrets, { namespace, name: clusterAuthSecretName(cluster) });
    if (!secret.ok && !isNotFound(secret.error)) return failPass(`reading the auth Secret: ${describeError(secret.error)}`, log);
    authSecretExists = secret.ok;
  }
  let autoscalerRbac: AutoscalerRbacObservation | undefined;
  if (isAutoscalingEnabled(cluster.spec)) {
    const seen = await readAutoscalerRbac(deps.client, cluster);
    if (!seen.ok) return failPass(seen.error, log);
    autoscalerRbac = seen.value;
  }
  const pending = deps.expectations.pending(key).map((e) => ({ group: e.group, podName: e.name, action: e.action }));
  const plan = planRayCluster(
    {
      cluster,
      pods,
      headServices,
      headlessServiceExists: deps.caches.servicesByLabels(namespace, { [rayClusterLabelKeys.headlessWorkerService]: name }).length > 0 ||
        deps.caches.service(namespace, headlessWorkerServiceName(cluster)) !== undefined,
      serveServiceExists: deps.caches.service(namespace, serveServiceName(cluster)) !== undefined,
      authSecretExists,
      ...(autoscalerRbac ? { autoscalerRbac } : {}),
      expectations: pending,
      now,
    },
    deps.settings,
  );
  const actionError = await executeActions(plan.actions, {
    client: deps.client,
    cluster,
    pods,
    record: deps.record,
    expect: (e) => {
      const pod = { kind: 'Pod', namespace, name: e.podName };
      if (e.action === 'create') deps.expectations.expectCreate(key, pod, e.group);
      else deps.expectations.expectDelete(key, pod, e.group);
    },
    forgetExpectations: () => deps.expectations.forget(key),
    randomBytes: deps.randomBytes,
  });
  const reconcileError: ReconcileError | undefined = actionError ?? plan.error;
  if (reconcileError) log.info({ error: reconcileError.message }, 'Reconciliation error');

  // Status from the cache as it is now (our own writes may not be visible yet; the next pass catches up).
  const statusResult = computeRayClusterStatus(
    {
      cluster,
      pods: deps.caches.pods(namespace, name),
      headServices: deps.caches.servicesByLabels(namespace, headServiceLookupLabels(cluster)),
      reconcileError,
      now: deps.now(),
    },
    deps.settings,
  );
  if (!statusResult.ok) return failPass(statusResult.error, log);
  let wrote = false;
  if (rayClusterStatusChanged(cluster.status, statusResult.status)) {
    const body = { ...raw, status: statusResult.status } as KubeObject;
    const written = await deps.client.replaceStatus(resources.rayClusters, body);
    if (!written.ok) {
      if (isConflict(written.error)) return { requeueAfterMs: SHORT_REQUEUE_MS };
      return failPass(`updating the status: ${describeError(written.error)}`, log);
    }
    deps.metrics.observeStatusWrite(cluster, cluster.status, statusResult.status, deps.now());
    wrote = true;
  }
  return { requeueAfterMs: reconcileError || wrote ? SHORT_REQUEUE_MS : deps.idleRequeueMs };
}

/**
 * Whether the autoscaler's ServiceAccount, Role and RoleBinding exist: read with GET each pass (no informers for
 * kinds the operator only ever creates). The ServiceAccount is looked up under the name KubeRay uses for it.
 */
async function readAutoscalerRbac(client: KubeClient, cluster: RayCluster): Promise<{ ok: true; value: AutoscalerRbacObservation } | { ok: false; error: string }> {
  const namespace = cluster.metadata.namespace ?? '';
  const own = cluster.spec.headGroupSpec.template.spec?.serviceAccountName;
  const lookups = [
    [resources.serviceaccounts, own || autoscalerServiceAccountName(cluster)],
    [resources.roles, autoscalerRoleName(cluster)],
    [resources.roleBindings, autoscalerRoleName(cluster)],
  ] as const;
  const found: boolean[] = [];
  for (const [type, name] of lookups) {
    const got = await client.get(type, { namespace, name });
    if (!got.ok && !isNotFound(got.error)) return { ok: false, error: `reading ${type.kind} ${namespace}/${name}: ${describeError(got.error)}` };
    found.push(got.ok);
  }
  return { ok: true, value: { serviceAccountExists: found[0] === true, roleExists: found[1] === true, roleBindingExists: found[2] === true } };
}

/** An error pass: logged, then retried after KubeRay's 2 s. */
function failPass(message: string, log: Logger): ReconcileResult {
  log.info({ error: message }, 'RayCluster reconcile did not finish');
  return { requeueAfterMs: SHORT_REQUEUE_MS };
}

export type { RayCluster };
