// Keeps an Endpoints object per Service with a selector: ready pods' IPs in `addresses`, the rest
// in `notReadyAddresses` (all in `addresses` with publishNotReadyAddresses), ports resolved from
// targetPort (number or the pod's named container port). Services without a selector are left to
// whoever manages their Endpoints, as in Kubernetes.
import { describeError, objectKey, resources, type KubeClient, type Logger, type ReconcileResult } from '@rayjob/kube-runtime';
import type { EndpointAddress, EndpointSubset, Endpoints, Pod, Service } from '../kube-objects/types.ts';
import { componentLogger, componentManager, runComponent } from '../node-runtime/component.ts';

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

export function startEndpointsController(client: KubeClient, onError: (message: string) => void = (m) => console.error(`[endpoints] ${m}`), logger?: Logger): EndpointsController {
  const manager = componentManager(client, logger ?? componentLogger('endpoints-controller'));
  const services = manager.informer<Service>(resources.services);
  const endpoints = manager.informer<Endpoints>(resources.endpoints);
  const pods = manager.informer<Pod>(resources.pods);
  const controller = manager.addController({ name: 'endpoints', reconcile: ({ namespace, name }) => sync(namespace ?? '', name) });
  controller.watch(services);
  controller.watch(endpoints, (object) => (services.cache.getByName(object.metadata.namespace, object.metadata.name ?? '') === undefined ? [] : [objectKey(object)]));
  /** The Services selecting a pod (before or after a label change). */
  const servicesOf = (pod: Pod, previous?: Pod): string[] =>
    services.cache.byNamespace(pod.metadata.namespace ?? '').filter((service) => {
      const selector = service.spec.selector;
      return selector !== undefined && (matches(selector, pod.metadata.labels) || (previous !== undefined && matches(selector, previous.metadata.labels)));
    }).map(objectKey);
  pods.addHandlers({
    add: (pod) => { for (const key of servicesOf(pod)) controller.enqueue(key); },
    update: (old, pod) => { for (const key of servicesOf(pod, old)) controller.enqueue(key); },
    delete: (pod) => { for (const key of servicesOf(pod)) controller.enqueue(key); },
  });
  // The controller starts its workers once services and endpoints listed; pods must have listed too.
  controller.watch(pods, () => []);

  async function sync(namespace: string, name: string): Promise<ReconcileResult> {
    const service = services.cache.getByName(namespace, name);
    if (service === undefined || service.spec.selector === undefined) return;
    const subsets = desiredSubsets(service, pods.cache.byNamespace(namespace));
    const current = endpoints.cache.getByName(namespace, name);
    if (current !== undefined && JSON.stringify(current.subsets ?? []) === JSON.stringify(subsets)) return;
    const body: Endpoints = {
      apiVersion: 'v1', kind: 'Endpoints',
      metadata: { name, namespace, labels: { ...(service.metadata.labels ?? {}) }, ...(current?.metadata.resourceVersion === undefined ? {} : { resourceVersion: current.metadata.resourceVersion }) },
      subsets,
    };
    const result = current === undefined ? await client.create(resources.endpoints, body) : await client.replace(resources.endpoints, body);
    // 409: our cache is behind; the watch brings the newer object, then this runs again.
    if (!result.ok && result.error.status === 409) return { requeue: true };
    if (!result.ok && result.error.status !== 404) onError(`write endpoints ${namespace}/${name}: ${describeError(result.error)}`);
  }

  return runComponent(manager, [services, endpoints, pods]);
}
