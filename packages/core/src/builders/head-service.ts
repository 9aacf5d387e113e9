import type { RayCluster, RayJob, Service, ServicePort } from '../schema/index.ts';
import { CREATED_BY_OPERATOR, labelKeys, ORIGINATED_FROM_RAYJOB, ownerReferenceTo, sanitizeLabelValue } from './labels.ts';

/** Ray's default head ports when the head container declares none. */
const DEFAULT_HEAD_PORTS: ServicePort[] = [
  { name: 'client', port: 10001 },
  { name: 'dashboard', port: 8265 },
  { name: 'gcs-server', port: 6379 },
  { name: 'metrics', port: 8080 },
  { name: 'serve', port: 8000 },
];

export const rayJobHeadServiceName = (rayJob: RayJob): string => `${rayJob.metadata.name}-head-svc`;

/**
 * The RayJob's own head Service `<rayjob>-head-svc`: a stable name for the current attempt's head (the cluster
 * name changes per attempt). Selects the cluster's head pod; headless unless the operator is told otherwise.
 */
export function buildRayJobHeadService(rayJob: RayJob, cluster: RayCluster, enableClusterIP: boolean): Service {
  const clusterName = cluster.metadata.name ?? '';
  const head = cluster.spec?.headGroupSpec;
  const base = head?.headService ? structuredClone(head.headService) : undefined;
  const containerPorts = head?.template.spec?.containers?.[0]?.ports ?? [];
  let ports: ServicePort[] = containerPorts.length
    ? containerPorts.map((p) => ({ name: p.name || `${p.containerPort}-port`, port: p.containerPort }))
    : DEFAULT_HEAD_PORTS.map((p) => ({ ...p }));
  if (base?.spec?.ports?.length) ports = [...base.spec.ports, ...ports.filter((p) => !base.spec?.ports?.some((b) => b.name === p.name))];
  if (!ports.some((p) => p.name === 'metrics')) ports.push({ name: 'metrics', port: 8080 });
  ports = ports.map((p) => ({ ...p, appProtocol: p.appProtocol ?? 'tcp' })).sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
  const type = head?.serviceType ?? base?.spec?.type ?? '';
  const headless = (type === '' || type === 'ClusterIP') && !enableClusterIP;
  const name = rayJobHeadServiceName(rayJob);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      ...(base?.metadata ?? {}),
      name,
      namespace: rayJob.metadata.namespace,
      labels: {
        [labelKeys.originatedFromCrName]: rayJob.metadata.name ?? '',
        [labelKeys.originatedFromCrd]: ORIGINATED_FROM_RAYJOB,
        [labelKeys.nodeType]: 'head',
        [labelKeys.identifier]: sanitizeLabelValue(`${rayJob.metadata.name}-head`),
      },
      ownerReferences: [ownerReferenceTo(rayJob)],
    },
    spec: {
      ...(base?.spec ?? {}),
      ...(type ? { type } : {}),
      selector: {
        [labelKeys.cluster]: clusterName,
        [labelKeys.nodeType]: 'head',
        [labelKeys.identifier]: sanitizeLabelValue(`${clusterName}-head`),
        [labelKeys.appName]: 'kuberay',
        [labelKeys.createdBy]: CREATED_BY_OPERATOR,
      },
      ports,
      ...(headless ? { clusterIP: 'None', publishNotReadyAddresses: true } : {}),
    },
  };
}

/** The existing Service still selects this cluster's head: nothing to do (KubeRay compares `ray.io/cluster`). */
export function headServiceIsCurrent(existing: Service, cluster: RayCluster): boolean {
  return existing.spec?.selector?.[labelKeys.cluster] === cluster.metadata.name;
}
