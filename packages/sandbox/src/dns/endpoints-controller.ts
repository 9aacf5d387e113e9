// Keeps an Endpoints object per Service with a selector: ready pods' IPs in `addresses`, the rest
// in `notReadyAddresses` (all in `addresses` with publishNotReadyAddresses), ports resolved from
// targetPort (number or the pod's named container port). Services without a selector are left to
// whoever manages their Endpoints, as in Kubernetes.
import { startInformer } from '../kube-client/informer.ts';
import type { KubeClient } from '../kube-client/rest-client.ts';
import { resources } from '../kube-client/rest-client.ts';
import type { EndpointAddress, EndpointSubset, Endpoints, Pod, Service } from '../kube-client/types.ts';
import { startWorkQueue } from '../kube-client/work-queue.ts';

const matches = (selector: Record<string, string>, labels: Record<string, string> | undefined): boolean =>
  Object.entries(selector).every(([key, value]) => labels?.[key] === value);

export function desiredSubsets(service: Service, pods: Pod[]): EndpointSubset[] {
  const selector = service.spec.selector ?? {};
  const ready: EndpointAddress[] = [];
  const notReady: EndpointAddress[] = [];
  let ports: EndpointSubset['ports'] = [];
  for (const pod of pods) {
    if (pod.metadata.namespace !== service.metadata.namespace || !matches(selector, pod.metadata.labels)) continue;
    const ip = pod.status?.podIP;
    const phase = pod.status?.phase;
    if (ip === undefined || ip === '' || pod.metadata.deletionTimestamp !== undefined || phase === 'Succeeded' || phase === 'Failed') continue;
    const address: EndpointAddress = { ip, nodeName: pod.spec.nodeName, targetRef: { kind: 'Pod', name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid: pod.metadata.uid ?? '' } };
    if (pod.spec.hostname !== undefined && pod.spec.subdomain === service.metadata.name) address.hostname = pod.spec.hostname;
    const isReady = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    (isReady || service.spec.publishNotReadyAddresses === true ? ready : notReady).push(address);
    ports = (service.spec.ports ?? []).map((port) => {
      const target = port.targetPort ?? port.port;
      const resolved = typeof target === 'number' ? target
        : pod.spec.containers.flatMap((c) => c.ports ?? []).find((p) => p.name === target)?.containerPort ?? (/^\d+$/.test(target) ? Number(target) : port.port);
      const out: { name?: string; port: number; protocol: string } = { port: resolved, protocol: port.protocol ?? 'TCP' };
      if (port.name !== undefined) out.name = port.name;
      return out;
    });
  }
  if (ready.length === 0 && notReady.length === 0) return [];
  const byIp = (a: EndpointAddress, b: EndpointAddress): number => a.ip.localeCompare(b.ip);
  const subset: EndpointSubset = { ports };
  if (ready.length > 0) subset.addresses = ready.sort(byIp);
  if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(byIp);
  return [subset];
}

export interface EndpointsController { readonly synced: Promise<void>; stop(): Promise<void> }

export function startEndpointsController(client: KubeClient, onError: (message: string) => void = (m) => console.error(`[endpoints] ${m}`)): EndpointsController {
  const queue = startWorkQueue(sync, (key, error) => onError(`${key}: ${(error as Error).message}`));
  const services = startInformer<Service>(client, resources.services, ({ object }) => queue.add(`${object.metadata.namespace}/${object.metadata.name}`));
  const endpoints = startInformer<Endpoints>(client, resources.endpoints, ({ object }) => {
    if (services.get(object.metadata.namespace, object.metadata.name ?? '') !== undefined) queue.add(`${object.metadata.namespace}/${object.metadata.name}`);
  });
  const pods = startInformer<Pod>(client, resources.pods, ({ object, previous }) => {
    for (const service of services.list()) {
      const selector = service.spec.selector;
      if (selector === undefined || service.metadata.namespace !== object.metadata.namespace) continue;
      if (matches(selector, object.metadata.labels) || (previous !== undefined && matches(selector, previous.metadata.labels))) {
        queue.add(`${service.metadata.namespace}/${service.metadata.name}`);
      }
    }
  });

  async function sync(key: string): Promise<void> {
    await Promise.all([services.synced, endpoints.synced, pods.synced]);
    const [namespace, name] = key.split('/') as [string, string];
    const service = services.get(namespace, name);
    if (service === undefined || service.spec.selector === undefined) return;
    const subsets = desiredSubsets(service, pods.list());
    const current = endpoints.get(namespace, name);
    if (current !== undefined && JSON.stringify(current.subsets ?? []) === JSON.stringify(subsets)) return;
    const body: Endpoints = {
      apiVersion: 'v1', kind: 'Endpoints',
      metadata: { name, namespace, labels: { ...(service.metadata.labels ?? {}) }, ...(current?.metadata.resourceVersion === undefined ? {} : { resourceVersion: current.metadata.resourceVersion }) },
      subsets,
    };
    const result = current === undefined
      ? await client.create(resources.endpoints, { namespace }, body)
      : await client.replace(resources.endpoints, { namespace, name }, body);
    if (!result.ok && result.status === 409) throw new Error('conflict; retrying');
    if (!result.ok && result.status !== 404) onError(`write endpoints ${key}: ${result.message}`);
  }

  return {
    synced: Promise.all([services.synced, endpoints.synced, pods.synced]).then(() => undefined),
    async stop() {
      services.stop();
      endpoints.stop();
      pods.stop();
      await queue.stop();
    },
  };
}
