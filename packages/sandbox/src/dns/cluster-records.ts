// Name resolution of the cluster's DNS schema, as a pure function of Services and Endpoints:
//   <svc>.<ns>.svc.<domain>              ready endpoint addresses (headless and ClusterIP alike: the
//                                        sandbox has no virtual IPs, so a ClusterIP name resolves to
//                                        its backing pod IPs; service port must equal targetPort)
//   <hostname>.<svc>.<ns>.svc.<domain>   the endpoint with that hostname (pods with a subdomain)
//   <a-b-c-d>.<ns>.pod.<domain>          the address a.b.c.d
// publishNotReadyAddresses is honoured by the endpoints controller, which then lists not-ready pods
// as ready addresses (as Kubernetes does).
import type { Endpoints, Service } from '../kube-objects/types.ts';

export type Resolution = { kind: 'found'; addresses: string[] } | { kind: 'nodata' } | { kind: 'nxdomain' } | { kind: 'outside' };

export interface ClusterView {
  service(namespace: string, name: string): Service | undefined;
  endpoints(namespace: string, name: string): Endpoints | undefined;
  namespaceExists(namespace: string): boolean;
}

export function resolveClusterName(view: ClusterView, rawName: string, clusterDomain: string): Resolution {
  const name = rawName.toLowerCase().replace(/\.$/, '');
  const suffix = `.${clusterDomain}`;
  if (!name.endsWith(suffix) && name !== clusterDomain) return { kind: 'outside' };
  const labels = name.slice(0, name.length - suffix.length).split('.').filter((l) => l !== '');
  if (labels.at(-1) === 'pod' && labels.length === 3) {
    const ip = (labels[0] ?? '').split('-');
    if (ip.length === 4 && ip.every((o) => /^\d{1,3}$/.test(o) && Number(o) < 256)) return { kind: 'found', addresses: [ip.join('.')] };
    return { kind: 'nxdomain' };
  }
  if (labels.at(-1) !== 'svc') return labels.length <= 1 ? { kind: 'nodata' } : { kind: 'nxdomain' };
  if (labels.length === 1) return { kind: 'nodata' };
  if (labels.length === 2) return view.namespaceExists(labels[0] ?? '') ? { kind: 'nodata' } : { kind: 'nxdomain' };
  const namespace = labels.at(-2) ?? '';
  const serviceName = labels.at(-3) ?? '';
  const service = view.service(namespace, serviceName);
  if (service === undefined) return { kind: 'nxdomain' };
  const addresses = (view.endpoints(namespace, serviceName)?.subsets ?? []).flatMap((s) => s.addresses ?? []);
  if (labels.length === 3) {
    const ips = [...new Set(addresses.map((a) => a.ip))];
    return ips.length > 0 ? { kind: 'found', addresses: ips } : { kind: 'nodata' };
  }
  if (labels.length === 4) {
    const hostname = labels[0];
    const match = addresses.filter((a) => a.hostname === hostname).map((a) => a.ip);
    return match.length > 0 ? { kind: 'found', addresses: match } : { kind: 'nxdomain' };
  }
  return { kind: 'nxdomain' };
}
