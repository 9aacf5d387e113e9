// Legacy (non-aggregated) discovery documents. kubectl asks for aggregated discovery first but accepts
// plain APIGroupList / APIResourceList when the response Content-Type is application/json.
import { gvKey, type Registry, type ResourceType } from '../registry/resource-types.ts';

export const serverVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-rayjob-sandbox',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const subresourceInfo: Record<string, { verbs: string[]; kind?: string; group?: string; version?: string }> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { verbs: ['get', 'patch', 'update'], kind: 'Scale', group: 'autoscaling', version: 'v1' },
  log: { verbs: ['get'] },
  binding: { verbs: ['create'], kind: 'Binding' },
  eviction: { verbs: ['create'], kind: 'Eviction', group: 'policy', version: 'v1' },
  proxy: { verbs: ['create', 'delete', 'get', 'patch', 'update'], kind: 'PodProxyOptions' },
  exec: { verbs: ['create', 'get'], kind: 'PodExecOptions' },
  attach: { verbs: ['create', 'get'], kind: 'PodAttachOptions' },
  portforward: { verbs: ['create', 'get'], kind: 'PodPortForwardOptions' },
  ephemeralcontainers: { verbs: ['get', 'patch', 'update'] },
  finalize: { verbs: ['update'] },
};

function resourceEntries(rt: ResourceType): Record<string, unknown>[] {
  const main = {
    name: rt.plural,
    singularName: rt.singular,
    namespaced: rt.namespaced,
    kind: rt.kind,
    verbs: rt.verbs,
    ...(rt.shortNames.length > 0 && { shortNames: rt.shortNames }),
    ...(rt.categories.length > 0 && { categories: rt.categories }),
  };
  const subs = rt.subresources.map((sub) => {
    const info = subresourceInfo[sub] ?? { verbs: ['get'] };
    const kind = rt.kind === 'Service' && sub === 'proxy' ? 'ServiceProxyOptions' : (info.kind ?? rt.kind);
    return {
      name: `${rt.plural}/${sub}`,
      singularName: '',
      namespaced: rt.namespaced,
      ...(info.group !== undefined && { group: info.group }),
      ...(info.version !== undefined && { version: info.version }),
      kind,
      verbs: info.verbs,
    };
  });
  return [main, ...subs];
}

export function resourceList(registry: Registry, group: string, version: string): Record<string, unknown> | undefined {
  const types = registry.all().filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gvKey(group, version), resources: types.flatMap(resourceEntries) };
}

function groupEntry(name: string, versions: string[]): Record<string, unknown> {
  const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

export function groupList(registry: Registry): Record<string, unknown> {
  const groups = [...registry.groups().entries()].filter(([g]) => g !== '');
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([g, vs]) => groupEntry(g, vs)) };
}

export function groupDoc(registry: Registry, group: string): Record<string, unknown> | undefined {
  const versions = registry.groups().get(group);
  if (!versions || group === '') return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, versions) };
}

export function coreVersions(address: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: address }] };
}
