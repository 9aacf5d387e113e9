import type { RayCluster, Service, ServicePort } from '../../schema/index.ts';
import { clusterHeadServiceName } from '../dashboard.ts';
import { CREATED_BY_OPERATOR, labelKeys } from '../labels.ts';
import { identifierLabel, rayClusterOwnerReference } from './ray-pod.ts';
import { rayClusterLabelKeys, type RayClusterSettings } from './settings.ts';

/** The Services a RayCluster owns: head (always), headless workers (multi-host groups), serve (annotation). */

const DEFAULT_PORTS: Record<string, number> = { client: 10001, 'gcs-server': 6379, dashboard: 8265, metrics: 8080, serve: 8000 };

/** Name -> port of the head Ray container (unnamed -> `<port>-port`), Ray's defaults if it declares none, plus metrics. */
export function headServicePorts(cluster: RayCluster): Record<string, number> {
  const ports: Record<string, number> = {};
  for (const p of cluster.spec.headGroupSpec.template.spec?.containers?.[0]?.ports ?? []) {
    ports[p.name || `${p.containerPort}-port`] = p.containerPort;
  }
  const out = Object.keys(ports).length > 0 ? ports : { ...DEFAULT_PORTS };
  if (!('metrics' in out)) out.metrics = 8080;
  return out;
}

const byName = (a: ServicePort, b: ServicePort) => ((a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0);

/** The labels the controller finds its head Service by (and that the Service selects the head Pod with). */
export function headServiceLookupLabels(cluster: RayCluster): Record<string, string> {
  const name = cluster.metadata.name ?? '';
  return { [labelKeys.cluster]: name, [labelKeys.nodeType]: 'head', [labelKeys.identifier]: identifierLabel(name, 'head') };
}

/**
 * `<cluster>-head-svc` (or headService.metadata.name). Headless unless a type other than ClusterIP is asked for or
 * the operator runs with ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE. A user-provided headService is the base: KubeRay's
 * labels and selector are forced, its ports come first and the generated ones are appended.
 */
export function buildClusterHeadService(cluster: RayCluster, settings: RayClusterSettings): Service {
  const head = cluster.spec.headGroupSpec;
  const selector = {
    ...headServiceLookupLabels(cluster),
    [labelKeys.appName]: head.template.metadata?.labels?.[labelKeys.appName] ?? 'kuberay',
    [labelKeys.createdBy]: CREATED_BY_OPERATOR,
  };
  const generated: ServicePort[] = Object.entries(headServicePorts(cluster))
    .map(([name, port]) => ({ name, port, appProtocol: 'tcp' }))
    .sort(byName);
  const annotations = { ...(cluster.spec.headServiceAnnotations ?? {}) };
  const type = head.serviceType ?? '';
  const name = clusterHeadServiceName(cluster);
  const metaBase = { namespace: cluster.metadata.namespace, ownerReferences: [rayClusterOwnerReference(cluster)] };
  if (head.headService) {
    const base = structuredClone(head.headService);
    return {
      ...base,
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        ...(base.metadata ?? {}),
        name,
        ...metaBase,
        labels: { ...(base.metadata?.labels ?? {}), ...selector },
        annotations: { ...(base.metadata?.annotations ?? {}), ...annotations },
      },
      spec: {
        ...(base.spec ?? {}),
        selector,
        ports: [...(base.spec?.ports ?? []), ...generated],
        ...(base.spec?.type ? {} : type ? { type } : {}),
      },
    };
  }
  const headless = !settings.enableRayHeadClusterIPService && (type === '' || type === 'ClusterIP');
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, ...metaBase, labels: { ...selector }, annotations },
    spec: {
      selector,
      ports: generated,
      ...(type ? { type } : {}),
      ...(headless ? { clusterIP: 'None', publishNotReadyAddresses: true } : {}),
    },
  };
}

export const headlessWorkerServiceName = (cluster: RayCluster): string => `${cluster.metadata.name}-headless`;
export const needsHeadlessWorkerService = (cluster: RayCluster): boolean =>
  (cluster.spec.workerGroupSpecs ?? []).some((g) => g.numOfHosts > 1);

/** `<cluster>-headless`: DNS for every worker Pod of multi-host groups. */
export function buildHeadlessWorkerService(cluster: RayCluster): Service {
  const name = cluster.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: headlessWorkerServiceName(cluster),
      namespace: cluster.metadata.namespace,
      labels: { [rayClusterLabelKeys.headlessWorkerService]: name },
      ownerReferences: [rayClusterOwnerReference(cluster)],
    },
    spec: {
      clusterIP: 'None',
      selector: { [labelKeys.cluster]: name, [labelKeys.nodeType]: 'worker' },
      type: 'ClusterIP',
      publishNotReadyAddresses: true,
    },
  };
}

export const serveServiceName = (cluster: RayCluster): string => `${cluster.metadata.name}-serve-svc`;

export type ServeServiceResult = { ok: true; service: Service } | { ok: false; error: string };

/** `<cluster>-serve-svc` over the head's `serve`/`serve-*` ports; KubeRay's error when there are none. */
export function buildServeService(cluster: RayCluster): ServeServiceResult {
  const name = cluster.metadata.name ?? '';
  const ports: ServicePort[] = Object.entries(headServicePorts(cluster))
    .filter(([portName]) => portName === 'serve' || portName.startsWith('serve-'))
    .map(([portName, port]) => ({ name: portName, port }))
    .sort(byName);
  if (ports.length === 0) {
    return {
      ok: false,
      error:
        "Please specify a port named 'serve' (or with the prefix 'serve-', e.g. 'serve-grpc') in the Ray head container; otherwise, the Kubernetes service for Ray Serve will not be created.",
    };
  }
  const type = cluster.spec.headGroupSpec.serviceType;
  return {
    ok: true,
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: serveServiceName(cluster),
        namespace: cluster.metadata.namespace,
        labels: {
          [labelKeys.originatedFromCrName]: name,
          [labelKeys.originatedFromCrd]: 'RayCluster',
          [rayClusterLabelKeys.serve]: `${name}-serve`,
        },
        ownerReferences: [rayClusterOwnerReference(cluster)],
      },
      spec: { selector: { [labelKeys.cluster]: name }, ports, ...(type ? { type } : {}) },
    },
  };
}

export const serveServiceEnabled = (cluster: RayCluster): boolean =>
  cluster.metadata.annotations?.['ray.io/enable-serve-service'] === 'true';
