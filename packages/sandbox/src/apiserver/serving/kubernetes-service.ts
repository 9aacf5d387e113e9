// The `kubernetes` Service in `default`, with its Endpoints and EndpointSlice, pointing at the API server as
// kube-apiserver publishes itself (first address of the service range, port 443 named https).
import type { ApiContext } from '../storage/context.ts';
import { createObject } from '../storage/objects.ts';

export const kubernetesServiceIP = '10.96.0.1';

export function publishKubernetesService(ctx: ApiContext, host: string, port: number): void {
  const lookup = (group: string, plural: string) => ctx.registry.lookup(group, 'v1', plural);
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  const service = lookup('', 'services');
  const endpoints = lookup('', 'endpoints');
  const slices = lookup('discovery.k8s.io', 'endpointslices');
  if (!service || !endpoints || !slices) return;
  createObject(ctx, service, 'default', {
    metadata: { name: 'kubernetes', labels },
    spec: { type: 'ClusterIP', clusterIP: kubernetesServiceIP, clusterIPs: [kubernetesServiceIP], sessionAffinity: 'None', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }] },
  });
  createObject(ctx, endpoints, 'default', {
    metadata: { name: 'kubernetes', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: host }], ports: [{ name: 'https', port, protocol: 'TCP' }] }],
  });
  createObject(ctx, slices, 'default', {
    metadata: { name: 'kubernetes', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [host], conditions: { ready: true } }],
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  });
}
