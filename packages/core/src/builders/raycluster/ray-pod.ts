import { formatQuantity, parseQuantity } from '../../quantity/quantity.ts';
import type { Container, OwnerReference, Pod, PodTemplateSpec, RayCluster, WorkerGroupSpec } from '../../schema/index.ts';
import { volumeMountsOf } from '../../validation/pod-env.ts';
import { isAutoscalingEnabled } from '../../validation/raycluster-spec.ts';
import { clusterHeadServiceName } from '../dashboard.ts';
import { CREATED_BY_OPERATOR, labelKeys } from '../labels.ts';
import { AUTOSCALER_CONTAINER, RAY_LOGS_MOUNT_PATH, RAY_LOGS_VOLUME, withAutoscalerSidecar, withWorkerRestartPolicy } from './autoscaler.ts';
import { gcsFaultToleranceWiring } from './gcs-fault-tolerance.ts';
import { withDefaultProbes } from './probes.ts';
import {
  creatorKind,
  needsTokenAuth,
  rayTokenVolume,
  RAY_TOKEN_VOLUME,
  withInitContainerEnv,
  withRayContainerEnv,
  withTokenAuth,
} from './ray-container-env.ts';
import { completeRayStartParams, rayContainerCommand, rayStartCommand, ULIMIT_PREFIX, type RayNodeType } from './ray-start.ts';
import {
  DEFAULT_HEAD_PORT,
  HEAD_GROUP_LABEL_VALUE,
  rayClusterAnnotationKeys,
  rayClusterLabelKeys,
  WAIT_GCS_READY_CONTAINER,
  type RayClusterSettings,
} from './settings.ts';
import { waitGcsReadyScript } from './wait-gcs-ready.ts';

/** Head and worker Pods as KubeRay builds them from the group templates (§4, §5 of the reference). */

/** `<head service>.<ns>.svc.<domain>`: the cluster's own head Service, never a RayJob's. */
export const headServiceFQDN = (cluster: RayCluster, settings: RayClusterSettings): string =>
  `${clusterHeadServiceName(cluster)}.${cluster.metadata.namespace ?? 'default'}.svc.${settings.clusterDomain}`;

/** The GCS port workers connect to: head rayStartParams `port`, else 6379. */
export const headPortOf = (cluster: RayCluster): string => cluster.spec.headGroupSpec.rayStartParams?.port ?? DEFAULT_HEAD_PORT;

/** `<prefix[:50]>-<type>` lowercased (KubeRay's PodName), with a trailing dash when used as generateName. */
export function podNamePrefix(prefix: string, nodeType: RayNodeType, generate: boolean): string {
  return `${prefix.slice(0, 50)}-${nodeType}`.toLowerCase() + (generate ? '-' : '');
}

const tokenAuthEnabled = (cluster: RayCluster) => cluster.spec.authOptions?.mode === 'token';

export function rayClusterOwnerReference(cluster: RayCluster): OwnerReference {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    name: cluster.metadata.name ?? '',
    uid: cluster.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** KubeRay's labels over the user's; only node-type, group and cluster cannot be overridden. */
function podLabels(cluster: RayCluster, nodeType: RayNodeType, group: string, user: Record<string, string>): Record<string, string> {
  const name = cluster.metadata.name ?? '';
  const labels: Record<string, string> = {
    [rayClusterLabelKeys.isRayNode]: 'yes',
    [labelKeys.cluster]: name,
    [labelKeys.nodeType]: nodeType,
    [rayClusterLabelKeys.group]: group,
    [labelKeys.identifier]: identifierLabel(name, nodeType),
    [labelKeys.appName]: 'kuberay',
    [labelKeys.createdBy]: CREATED_BY_OPERATOR,
  };
  for (const [key, value] of Object.entries(user)) {
    if (key === labelKeys.nodeType || key === rayClusterLabelKeys.group || key === labelKeys.cluster) continue;
    labels[key] = value;
  }
  return labels;
}

/** `<cluster>-<type>` as a label value: at most 63 characters keeping the tail (KubeRay's CheckLabel). */
export function identifierLabel(clusterName: string, nodeType: RayNodeType | 'redis-cleanup'): string {
  const value = `${clusterName}-${nodeType}`;
  const clipped = value.length > 63 ? value.slice(value.length - 63) : value;
  return /^[\p{P}]/u.test(clipped) ? `r${clipped.slice(1)}` : clipped;
}

interface GroupInput {
  nodeType: RayNodeType;
  groupName: string;
  template: PodTemplateSpec;
  rayStartParams: Record<string, string> | undefined;
  resources: Record<string, string> | undefined;
  labels: Record<string, string> | undefined;
}

function rayContainerOf(template: PodTemplateSpec): Container {
  const container = template.spec?.containers?.[0];
  if (!container) throw new Error('a Ray group template needs at least one container (validation rejects this spec first)');
  return container;
}

/** The template with KubeRay's metadata, labels, annotations and metrics port: DefaultHeadPodTemplate / DefaultWorkerPodTemplate. */
function groupTemplate(cluster: RayCluster, group: GroupInput, settings: RayClusterSettings, fqdn: string): { template: PodTemplateSpec; group: GroupInput } {
  const cloned = structuredClone(group.template);
  const template = group.nodeType === 'head' ? withAutoscalerSidecar(cluster, cloned) : withWorkerRestartPolicy(cluster, cloned);
  const spec = template.spec ?? {};
  const containers = [...(spec.containers ?? [])];
  let ray = { ...rayContainerOf(template) };
  const metadata = { ...(template.metadata ?? {}) } as NonNullable<PodTemplateSpec['metadata']> & { generateName?: string };
  metadata.namespace = cluster.metadata.namespace;
  let initContainers = [...(spec.initContainers ?? [])];
  if (group.nodeType === 'worker' && settings.enableInitContainerInjection) {
    initContainers.push(waitGcsReadyContainer(ray, fqdn, headPortOf(cluster), settings));
  }
  metadata.labels = podLabels(cluster, group.nodeType, group.groupName, { ...(group.template.metadata?.labels ?? {}), ...(group.labels ?? {}) });
  const annotations = { ...(metadata.annotations ?? {}) };
  if (cluster.metadata.annotations?.[rayClusterAnnotationKeys.overwriteContainerCmd]?.toLowerCase() === 'true') {
    annotations[rayClusterAnnotationKeys.overwriteContainerCmd] = 'true';
  }
  // After the wait-gcs-ready copy: KubeRay's init container does not get the FT env.
  const ft = gcsFaultToleranceWiring(ray, cluster, group.nodeType);
  ray = ft.container;
  Object.assign(annotations, ft.annotations);
  metadata.annotations = annotations;
  if (!(ray.ports ?? []).some((p) => p.name === 'metrics')) ray.ports = [...(ray.ports ?? []), { name: 'metrics', containerPort: 8080 }];
  const volumes = [...((spec.volumes ?? []) as { name?: string }[])];
  if (tokenAuthEnabled(cluster)) {
    ray = withTokenAuth(ray, cluster);
    if (cluster.spec.authOptions?.enableK8sTokenAuth === true && !volumes.some((v) => v.name === RAY_TOKEN_VOLUME)) volumes.push(rayTokenVolume());
    initContainers = initContainers.map((c) => (needsTokenAuth(c) ? withTokenAuth(c, cluster) : c));
  }
  containers[0] = ray;
  template.metadata = metadata;
  template.spec = { ...spec, containers, ...(initContainers.length ? { initContainers } : {}), ...(volumes.length ? { volumes } : {}) };
  const rayStartParams = Object.keys(ft.rayStartParams).length > 0 ? { ...(group.rayStartParams ?? {}), ...ft.rayStartParams } : group.rayStartParams;
  return { template, group: { ...group, rayStartParams } };
}

function waitGcsReadyContainer(ray: Container, fqdn: string, port: string, settings: RayClusterSettings): Container {
  const source = structuredClone(ray) as Container & { securityContext?: unknown };
  const container: Container & { securityContext?: unknown } = {
    name: WAIT_GCS_READY_CONTAINER,
    image: source.image,
    ...(source.imagePullPolicy !== undefined ? { imagePullPolicy: source.imagePullPolicy } : {}),
    command: rayContainerCommand(settings.enableLoginShell),
    args: [waitGcsReadyScript(`${fqdn}:${port}`)],
    ...(source.securityContext !== undefined ? { securityContext: source.securityContext } : {}),
    resources: { limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } },
  };
  if (source.env !== undefined) container.env = source.env;
  if (source.volumeMounts !== undefined) container.volumeMounts = source.volumeMounts;
  return container;
}

/** BuildPod: shm volume, the generated command, env, probes; then the owner reference. */
function buildPod(cluster: RayCluster, template: PodTemplateSpec, group: GroupInput, settings: RayClusterSettings, fqdn: string): Pod {
  const port = headPortOf(cluster);
  const spec = template.spec ?? {};
  const containers = [...(spec.containers ?? [])];
  let ray = { ...rayContainerOf(template) };
  const params = completeRayStartParams({
    nodeType: group.nodeType,
    rayStartParams: group.rayStartParams,
    groupResources: group.resources,
    groupLabels: group.labels,
    containerResources: ray.resources,
    headAddress: `${fqdn}:${port}`,
    autoscaling: group.nodeType === 'head' && isAutoscalingEnabled(cluster.spec),
  });
  const volumes = [...((spec.volumes ?? []) as { name?: string }[])];
  if (!('plasma-directory' in params) && !volumeMountsOf(ray).some((m) => m.mountPath === '/dev/shm')) {
    if (!volumes.some((v) => v.name === 'shared-mem')) volumes.push(sharedMemoryVolume(ray));
    ray.volumeMounts = [...(ray.volumeMounts ?? []), { mountPath: '/dev/shm', name: 'shared-mem' }];
  }
  const autoscalerIndex = group.nodeType === 'head' && isAutoscalingEnabled(cluster.spec) ? containers.findIndex((c) => c.name === AUTOSCALER_CONTAINER) : -1;
  if (autoscalerIndex > 0) {
    // The autoscaler writes its event logs where the head's Ray reads them: one emptyDir at /tmp/ray in both.
    ray = withRayLogsMount(ray, volumes);
    containers[autoscalerIndex] = withRayLogsMount(containers[autoscalerIndex] as Container, volumes);
  }
  const startCommand = rayStartCommand(group.nodeType, params);
  const userCommand = [...(ray.command ?? []), ...(ray.args ?? [])].map((part) => ` ${part} `).join('');
  const overwrite = template.metadata?.annotations?.[rayClusterAnnotationKeys.overwriteContainerCmd]?.toLowerCase() === 'true';
  if (!overwrite && !userCommand.includes('ray start')) {
    const generated = `${ULIMIT_PREFIX}; ${startCommand}`;
    ray.command = rayContainerCommand(settings.enableLoginShell);
    ray.args = [userCommand ? `${userCommand} && ${generated}` : generated];
  }
  // KubeRay's configuration file: default env vars first, each only where the Ray container lacks it.
  const defaultEnv = (settings.podDefaults?.defaultContainerEnvs ?? []).filter((d) => !(ray.env ?? []).some((e) => e.name === d.name));
  if (defaultEnv.length > 0) ray.env = [...(ray.env ?? []), ...defaultEnv];
  const creator = creatorKind(cluster);
  ray = withRayContainerEnv(ray, { nodeType: group.nodeType, fqdn, headPort: port, startCommand, creator, kuberayVersion: settings.kuberayVersion });
  if (settings.enableProbesInjection) ray = withDefaultProbes(ray, group.nodeType, params, cluster.spec.rayVersion, creator);
  containers[0] = ray;
  const initContainers = spec.initContainers?.map((c) => withInitContainerEnv(c, fqdn));
  const metadata = template.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, ownerReferences: [rayClusterOwnerReference(cluster)] },
    spec: {
      ...spec,
      containers,
      ...(initContainers ? { initContainers } : {}),
      ...(volumes.length ? { volumes } : {}),
    },
  };
}

/** KubeRay's configuration file on a group template: sidecars appended, labels and annotations only where absent. */
function withPodDefaults(template: PodTemplateSpec, nodeType: RayNodeType, settings: RayClusterSettings): PodTemplateSpec {
  const defaults = settings.podDefaults;
  if (!defaults) return template;
  const sidecars = nodeType === 'head' ? defaults.headSidecarContainers : defaults.workerSidecarContainers;
  const metadata = template.metadata ?? {};
  return {
    ...template,
    metadata: {
      ...metadata,
      labels: { ...defaults.defaultPodLabels, ...(metadata.labels ?? {}) },
      annotations: { ...defaults.defaultPodAnnotations, ...(metadata.annotations ?? {}) },
    },
    spec: { ...(template.spec ?? {}), containers: [...(template.spec?.containers ?? []), ...structuredClone(sidecars)] },
  };
}

/** KubeRay's addEmptyDir for `ray-logs`: skipped when the container already mounts /tmp/ray; the volume added once. */
function withRayLogsMount(container: Container, volumes: { name?: string }[]): Container {
  if (volumeMountsOf(container).some((m) => m.mountPath === RAY_LOGS_MOUNT_PATH)) return container;
  if (!volumes.some((v) => v.name === RAY_LOGS_VOLUME)) volumes.push({ name: RAY_LOGS_VOLUME, emptyDir: {} } as { name: string });
  return { ...container, volumeMounts: [...(container.volumeMounts ?? []), { mountPath: RAY_LOGS_MOUNT_PATH, name: RAY_LOGS_VOLUME }] };
}

/** emptyDir in memory at /dev/shm, sized by the Ray container's memory limit, else its request. */
function sharedMemoryVolume(ray: Container): { name: string; emptyDir: Record<string, string> } {
  const memory = ray.resources?.limits?.memory ?? ray.resources?.requests?.memory;
  const emptyDir: Record<string, string> = { medium: 'Memory' };
  if (memory !== undefined) {
    const q = parseQuantity(memory);
    emptyDir.sizeLimit = q ? formatQuantity(q) : String(memory);
  }
  return { name: 'shared-mem', emptyDir };
}

export interface HeadPodExtras {
  /** `ray.io/upgrade-strategy-recreate-hash`: our hash of the scaling-neutral spec. */
  specHash: string;
}

export function buildHeadPod(cluster: RayCluster, settings: RayClusterSettings, extras: HeadPodExtras): Pod {
  const head = cluster.spec.headGroupSpec;
  const fqdn = headServiceFQDN(cluster, settings);
  const group: GroupInput = {
    nodeType: 'head',
    groupName: HEAD_GROUP_LABEL_VALUE,
    template: head.template,
    rayStartParams: head.rayStartParams,
    resources: head.resources,
    labels: head.labels,
  };
  const built = groupTemplate(cluster, group, settings, fqdn);
  const template = withPodDefaults(built.template, 'head', settings);
  const completed = built.group;
  const prefix = podNamePrefix(cluster.metadata.name ?? '', 'head', !settings.deterministicHeadPodName);
  const metadata = template.metadata as Record<string, unknown>;
  delete metadata.name;
  delete metadata.generateName;
  if (settings.deterministicHeadPodName) metadata.name = prefix;
  else metadata.generateName = prefix;
  const pod = buildPod(cluster, template, completed, settings, fqdn);
  pod.metadata.annotations = {
    ...(pod.metadata.annotations ?? {}),
    [rayClusterAnnotationKeys.upgradeStrategyHash]: extras.specHash,
    [rayClusterAnnotationKeys.kuberayVersion]: settings.kuberayVersion,
  };
  return pod;
}

/** A multi-host replica's Pod (numOfHosts > 1, gate RayMultiHostIndexing): which replica, which host of it. */
export interface MultiHostPlacement {
  replicaName: string;
  hostIndex: number;
}

export function buildWorkerPod(cluster: RayCluster, worker: WorkerGroupSpec, settings: RayClusterSettings, replicaIndex: number, multiHost?: MultiHostPlacement): Pod {
  const fqdn = headServiceFQDN(cluster, settings);
  const group: GroupInput = {
    nodeType: 'worker',
    groupName: worker.groupName,
    template: worker.template,
    rayStartParams: worker.rayStartParams,
    resources: worker.resources,
    labels: worker.labels,
  };
  const built = groupTemplate(cluster, group, settings, fqdn);
  const template = withPodDefaults(built.template, 'worker', settings);
  const completed = built.group;
  const metadata = template.metadata as Record<string, unknown> & { labels: Record<string, string> };
  delete metadata.name;
  metadata.generateName = podNamePrefix(`${cluster.metadata.name ?? ''}-${worker.groupName}`, 'worker', true);
  if (settings.featureGates.rayMultiHostIndexing) {
    metadata.labels[rayClusterLabelKeys.replicaIndex] = String(replicaIndex);
    if (multiHost && (worker.numOfHosts ?? 1) > 1) {
      metadata.labels[rayClusterLabelKeys.replicaName] = multiHost.replicaName;
      metadata.labels[rayClusterLabelKeys.hostIndex] = String(multiHost.hostIndex);
    }
  }
  return buildPod(cluster, template, completed, settings, fqdn);
}
