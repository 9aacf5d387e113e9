import {
  autoscalerRoleName,
  autoscalerServiceAccountName,
  clusterAuthSecretName,
  headlessWorkerServiceName,
  headServiceLookupLabels,
  isAutoscalingEnabled,
  labelKeys,
  needsAuthSecret,
  rayClusterLabelKeys,
  serveServiceName,
  type AutoscalerRbacObservation,
  type Pod,
  type RayCluster,
  type Service,
} from '@rayjob/core';
import { describeError, isNotFound, resources, type KubeClient, type KubeObject } from '@rayjob/kube-runtime';
import { RAY_POD_SELECTOR } from '../../runtime/cached-fields.ts';
import type { SharedInformers } from '../../runtime/shared-informers.ts';

/** Every Ray Pod (runtime/cached-fields.ts: one cache, shared with the RayJob controller). */
export { RAY_POD_SELECTOR };

/** The kinds the RayCluster controller reads from the informers' cache. */
export interface ObjectView {
  cluster(namespace: string, name: string): KubeObject | undefined;
  /** Pods labelled with the cluster's name in its namespace. */
  pods(namespace: string, clusterName: string): Pod[];
  servicesByLabels(namespace: string, labels: Record<string, string>): Service[];
  service(namespace: string, name: string): Service | undefined;
}

/** Cache reads across the informers of the watched namespaces. */
export function objectView(informers: SharedInformers): ObjectView {
  const inNamespace = <T>(items: KubeObject[], ns: string) => items.filter((o) => o.metadata.namespace === ns) as unknown as T[];
  return {
    cluster: (ns, name) => informers.forNamespace<KubeObject>(resources.rayClusters, ns)?.cache.getByName(ns, name),
    pods: (ns, clusterName) =>
      inNamespace<Pod>(informers.forNamespace<KubeObject>(resources.pods, ns, RAY_POD_SELECTOR)?.cache.byLabels({ [labelKeys.cluster]: clusterName }) ?? [], ns),
    servicesByLabels: (ns, labels) => inNamespace<Service>(informers.forNamespace<KubeObject>(resources.services, ns)?.cache.byLabels(labels) ?? [], ns),
    service: (ns, name) => informers.forNamespace<KubeObject>(resources.services, ns)?.cache.getByName(ns, name) as Service | undefined,
  };
}

/** What planning a RayCluster reads: its Pods and Services from the cache, its auth Secret and autoscaler RBAC by GET. */
export interface ClusterObservation {
  pods: Pod[];
  headServices: Service[];
  headlessServiceExists: boolean;
  serveServiceExists: boolean;
  authSecretExists: boolean;
  autoscalerRbac?: AutoscalerRbacObservation;
}

export async function observe(cluster: RayCluster, deps: { view: ObjectView; client: KubeClient }): Promise<{ ok: true; value: ClusterObservation } | { ok: false; error: string }> {
  const { view, client } = deps;
  const namespace = cluster.metadata.namespace ?? '';
  const name = cluster.metadata.name ?? '';
  const pods = view.pods(namespace, name);
  const headServices = view.servicesByLabels(namespace, headServiceLookupLabels(cluster));
  let authSecretExists = true;
  if (needsAuthSecret(cluster)) {
    const secret = await client.get(resources.secrets, { namespace, name: clusterAuthSecretName(cluster) });
    if (!secret.ok && !isNotFound(secret.error)) return { ok: false, error: `reading the auth Secret: ${describeError(secret.error)}` };
    authSecretExists = secret.ok;
  }
  let autoscalerRbac: AutoscalerRbacObservation | undefined;
  if (isAutoscalingEnabled(cluster.spec)) {
    const seen = await readAutoscalerRbac(client, cluster);
    if (!seen.ok) return seen;
    autoscalerRbac = seen.value;
  }
  return {
    ok: true,
    value: {
      pods,
      headServices,
      headlessServiceExists: view.servicesByLabels(namespace, { [rayClusterLabelKeys.headlessWorkerService]: name }).length > 0 ||
        view.service(namespace, headlessWorkerServiceName(cluster)) !== undefined,
      serveServiceExists: view.service(namespace, serveServiceName(cluster)) !== undefined,
      authSecretExists,
      ...(autoscalerRbac ? { autoscalerRbac } : {}),
    },
  };
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
