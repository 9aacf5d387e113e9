import type { Container, EnvVar, PodTemplateSpec, RayCluster, RayClusterSpec } from '../../schema/index.ts';
import { isAutoscalingEnabled, isAutoscalingV2Enabled, RAY_ENABLE_AUTOSCALER_V2 } from '../../validation/raycluster-spec.ts';
import { clipName } from '../clip-name.ts';
import { labelKeys } from '../labels.ts';
import { rayContainerCommand } from './ray-start.ts';
import { withTokenAuth } from './ray-container-env.ts';

/**
 * Ray's autoscaler as KubeRay runs it (reference §4.5, §6.3): a sidecar of the head Pod that reads the RayCluster
 * and its Pods through the API server and writes `replicas` / `scaleStrategy.workersToDelete`; the head's Ray
 * runs without its own monitor; a ServiceAccount, Role and RoleBinding give the sidecar exactly those calls.
 */

export const AUTOSCALER_CONTAINER = 'autoscaler';
export const RAY_LOGS_VOLUME = 'ray-logs';
export const RAY_LOGS_MOUNT_PATH = '/tmp/ray';
export const AUTOSCALER_START_COMMAND = 'ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) --cluster-namespace $(RAY_CLUSTER_NAMESPACE)';
const AUTOSCALER_RESOURCES = { cpu: '500m', memory: '512Mi' };

export const isAutoscalingV1Explicit = (spec: RayClusterSpec | undefined): boolean => spec?.autoscalerOptions?.version === 'v1';

/** The head's ServiceAccount: the template's, else the cluster's name (unclipped; KubeRay looks it up by this). */
export const headServiceAccountName = (cluster: RayCluster): string =>
  cluster.spec.headGroupSpec.template.spec?.serviceAccountName || (cluster.metadata.name ?? '');

/** Name of the autoscaler's ServiceAccount as created and as the head Pod uses it. */
export const autoscalerServiceAccountName = (cluster: RayCluster): string => clipName(headServiceAccountName(cluster));

/** The Role and RoleBinding: the cluster's name, clipped. */
export const autoscalerRoleName = (cluster: RayCluster): string => clipName(cluster.metadata.name ?? '');

/** The sidecar before the user's autoscalerOptions are merged over it. */
function baseAutoscalerContainer(image: string | undefined): Container {
  const fieldRef = (name: string, fieldPath: string): EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });
  return {
    name: AUTOSCALER_CONTAINER,
    ...(image !== undefined ? { image } : {}),
    imagePullPolicy: 'IfNotPresent',
    env: [
      fieldRef('RAY_CLUSTER_NAME', `metadata.labels['${labelKeys.cluster}']`),
      fieldRef('RAY_CLUSTER_NAMESPACE', 'metadata.namespace'),
      fieldRef('RAY_HEAD_POD_NAME', 'metadata.name'),
      { name: 'KUBERAY_CRD_VER', value: 'v1' },
      { name: 'KUBERAY_GEN_AUTOSCALER_START_CMD', value: AUTOSCALER_START_COMMAND },
    ],
    command: rayContainerCommand(false),
    args: [AUTOSCALER_START_COMMAND],
    resources: { limits: { ...AUTOSCALER_RESOURCES }, requests: { ...AUTOSCALER_RESOURCES } },
  };
}

/** autoscalerOptions over the sidecar: scalars replace, env/envFrom/volumeMounts append, command/args replace when non-empty. */
export function buildAutoscalerContainer(cluster: RayCluster, rayImage: string | undefined): Container {
  let container = baseAutoscalerContainer(rayImage);
  if (cluster.spec.authOptions?.mode === 'token') container = withTokenAuth(container, cluster);
  const o = cluster.spec.autoscalerOptions;
  if (!o) return container;
  const merged: Container & Record<string, unknown> = { ...container };
  if (o.resources !== undefined) merged.resources = structuredClone(o.resources) as Container['resources'];
  if (o.image !== undefined) merged.image = o.image;
  if (o.imagePullPolicy !== undefined) merged.imagePullPolicy = o.imagePullPolicy;
  if (o.env?.length) merged.env = [...(merged.env ?? []), ...(structuredClone(o.env) as EnvVar[])];
  if (o.envFrom?.length) merged.envFrom = structuredClone(o.envFrom);
  if (o.volumeMounts?.length) merged.volumeMounts = [...((merged.volumeMounts as unknown[]) ?? []), ...structuredClone(o.volumeMounts)] as Container['volumeMounts'];
  if (o.securityContext !== undefined) merged.securityContext = structuredClone(o.securityContext);
  if (o.command?.length) merged.command = [...o.command];
  if (o.args?.length) merged.args = [...o.args];
  return merged;
}

/**
 * The head template's autoscaling changes (DefaultHeadPodTemplate): its ServiceAccount, the sidecar after the
 * template's containers, and for an explicit version RAY_enable_autoscaler_v2 on the Ray container (v2: restartPolicy
 * Never, because Ray v2 tracks nodes by Pod and a restarted container would come back as an unknown node).
 */
export function withAutoscalerSidecar(cluster: RayCluster, template: PodTemplateSpec): PodTemplateSpec {
  if (!isAutoscalingEnabled(cluster.spec)) return template;
  const spec = { ...(template.spec ?? {}) };
  const containers = [...(spec.containers ?? [])];
  const ray = containers[0];
  if (!ray) return template;
  spec.serviceAccountName = autoscalerServiceAccountName(cluster);
  containers.push(buildAutoscalerContainer(cluster, ray.image));
  if (isAutoscalingV2Enabled(cluster.spec) || isAutoscalingV1Explicit(cluster.spec)) {
    const value = isAutoscalingV2Enabled(cluster.spec) ? 'true' : 'false';
    containers[0] = { ...ray, env: [...(ray.env ?? []), { name: RAY_ENABLE_AUTOSCALER_V2, value }] };
  }
  if (isAutoscalingV2Enabled(cluster.spec)) spec.restartPolicy = 'Never';
  spec.containers = containers;
  return { ...template, spec };
}

/** Workers of a v2 cluster are not restarted in place either. */
export function withWorkerRestartPolicy(cluster: RayCluster, template: PodTemplateSpec): PodTemplateSpec {
  if (!isAutoscalingEnabled(cluster.spec) || !isAutoscalingV2Enabled(cluster.spec)) return template;
  return { ...template, spec: { ...(template.spec ?? {}), restartPolicy: 'Never' } };
}
