// Per-pod /etc/hosts and /etc/resolv.conf, bind-mounted over the real paths in every container, so
// glibc (Python, getent, curl) and Node's resolver use the cluster DNS with Kubernetes' search path.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from '../kube-objects/types.ts';

export function resolvConf(namespace: string, nameserver: string, clusterDomain: string): string {
  return [
    `search ${namespace}.svc.${clusterDomain} svc.${clusterDomain} ${clusterDomain}`,
    `nameserver ${nameserver}`,
    'options ndots:5',
    '',
  ].join('\n');
}

export function hostsFile(pod: Pod, podIP: string, clusterDomain: string): string {
  const hostname = pod.spec.hostname ?? pod.metadata.name ?? 'pod';
  const fqdn = pod.spec.subdomain !== undefined
    ? `${hostname}.${pod.spec.subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}\t`
    : '';
  return [
    '# Kubernetes-managed hosts file (rayjob sandbox).',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    `${podIP}\t${fqdn}${hostname}`,
    '',
  ].join('\n');
}

export function writePodFiles(podDir: string, pod: Pod, podIP: string, dns: { nameserver: string; clusterDomain: string }): { hosts: string; resolv: string } {
  const etc = join(podDir, 'etc');
  mkdirSync(etc, { recursive: true });
  const hosts = join(etc, 'hosts');
  const resolv = join(etc, 'resolv.conf');
  writeFileSync(hosts, hostsFile(pod, podIP, dns.clusterDomain));
  writeFileSync(resolv, resolvConf(pod.metadata.namespace ?? 'default', dns.nameserver, dns.clusterDomain));
  return { hosts, resolv };
}
