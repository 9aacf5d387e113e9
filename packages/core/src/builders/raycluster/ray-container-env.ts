import type { Container, EnvVar, RayCluster } from '../../schema/index.ts';
import { authSecretName } from '../auth-env.ts';
import { labelKeys } from '../labels.ts';
import type { RayNodeType } from './ray-start.ts';
import { rayClusterLabelKeys, WAIT_GCS_READY_CONTAINER } from './settings.ts';

/** Env and mounts KubeRay adds to Ray containers, in KubeRay's order ("if absent" = skipped when the name exists). */

const hasEnv = (env: readonly EnvVar[] | undefined, name: string) => (env ?? []).some((e) => e.name === name);
const fieldRef = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });

/** `<head service>` out of `<head service>.<ns>.svc.<domain>` (RAY_IP, kept by KubeRay for old images). */
export const rayIPFromFQDN = (fqdn: string): string => fqdn.split('.')[0] ?? '';

/** RayJob, RayService or RayCluster: who created the cluster, from its `ray.io/originated-from-crd` label. */
export function creatorKind(cluster: RayCluster): 'RayJob' | 'RayService' | 'RayCluster' {
  const label = cluster.metadata.labels?.[labelKeys.originatedFromCrd];
  return label === 'RayJob' || label === 'RayService' ? label : 'RayCluster';
}

export interface RayEnvInput {
  nodeType: RayNodeType;
  fqdn: string;
  headPort: string;
  startCommand: string;
  creator: 'RayJob' | 'RayService' | 'RayCluster';
  kuberayVersion: string;
}

export function withRayContainerEnv(container: Container, input: RayEnvInput): Container {
  const env = [...(container.env ?? [])];
  const addIfAbsent = (name: string, value: string) => {
    if (!hasEnv(env, name)) env.push({ name, value });
  };
  if (input.nodeType === 'worker') env.push({ name: 'FQ_RAY_IP', value: input.fqdn }, { name: 'RAY_IP', value: rayIPFromFQDN(input.fqdn) });
  env.push(
    fieldRef('RAY_CLUSTER_NAME', `metadata.labels['${labelKeys.cluster}']`),
    fieldRef('RAY_CLUSTER_NAMESPACE', 'metadata.namespace'),
    fieldRef('RAY_CLOUD_INSTANCE_ID', 'metadata.name'),
    fieldRef('RAY_NODE_TYPE_NAME', `metadata.labels['${rayClusterLabelKeys.group}']`),
    { name: 'KUBERAY_GEN_RAY_START_CMD', value: input.startCommand },
  );
  addIfAbsent('RAY_PORT', input.headPort);
  if (input.creator === 'RayService') {
    addIfAbsent('RAY_TIMEOUT_MS_TASK_WAIT_FOR_DEATH_INFO', '0');
    addIfAbsent('RAY_GCS_SERVER_REQUEST_TIMEOUT_SECONDS', '5');
    addIfAbsent('RAY_SERVE_KV_TIMEOUT_S', '5');
  }
  addIfAbsent('RAY_ADDRESS', `${input.nodeType === 'head' ? '127.0.0.1' : input.fqdn}:${input.headPort}`);
  addIfAbsent('RAY_USAGE_STATS_KUBERAY_IN_USE', '1');
  if (input.nodeType === 'head') {
    env.push({ name: 'RAY_USAGE_STATS_EXTRA_TAGS', value: `kuberay_version=${input.kuberayVersion};kuberay_crd=${input.creator}` });
  }
  addIfAbsent('RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE', '1');
  return { ...container, env };
}

/** Every init container (users' too) learns where the head is. */
export function withInitContainerEnv(container: Container, fqdn: string): Container {
  return { ...container, env: [...(container.env ?? []), { name: 'FQ_RAY_IP', value: fqdn }, { name: 'RAY_IP', value: rayIPFromFQDN(fqdn) }] };
}

export const RAY_TOKEN_VOLUME = 'ray-token';
const RAY_TOKEN_MOUNT_PATH = '/var/run/secrets/ray.io/serviceaccount';

/**
 * Token auth (authOptions.mode token): RAY_AUTH_MODE, and either the token from the cluster's Secret or, with
 * Kubernetes token auth, a projected service-account token mounted at KubeRay's path.
 */
export function withTokenAuth(container: Container, cluster: RayCluster): Container {
  const auth = cluster.spec.authOptions;
  const env = [...(container.env ?? [])];
  const mounts = [...((container.volumeMounts ?? []) as { name?: string }[])];
  if (!hasEnv(env, 'RAY_AUTH_MODE')) env.push({ name: 'RAY_AUTH_MODE', value: 'token' });
  if (auth?.enableK8sTokenAuth === true) {
    if (!hasEnv(env, 'RAY_ENABLE_K8S_TOKEN_AUTH')) env.push({ name: 'RAY_ENABLE_K8S_TOKEN_AUTH', value: 'true' });
    if (!mounts.some((m) => m.name === RAY_TOKEN_VOLUME)) mounts.push({ name: RAY_TOKEN_VOLUME, mountPath: RAY_TOKEN_MOUNT_PATH, readOnly: true } as { name: string });
  } else if (!hasEnv(env, 'RAY_AUTH_TOKEN')) {
    env.push({ name: 'RAY_AUTH_TOKEN', valueFrom: { secretKeyRef: { name: authSecretName(cluster.metadata.name ?? '', cluster.spec), key: 'auth_token' } } });
  }
  return { ...container, env, volumeMounts: mounts };
}

export const rayTokenVolume = () => ({ name: RAY_TOKEN_VOLUME, projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } });

/** The wait-gcs-ready init container gets token auth too; users' init containers do not. */
export const needsTokenAuth = (container: Container) => container.name === WAIT_GCS_READY_CONTAINER;
