// Resource types: where an object lives on the API server (group, version, plural) and whether it is
// namespaced. The well-known ones the operator, the RayCluster controller and the sandbox's node side use.
export interface ResourceType {
  /** '' for the core group. */
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

const core = (plural: string, kind: string, namespaced = true): ResourceType => ({ group: '', version: 'v1', plural, kind, namespaced });

export const resources = {
  pods: core('pods', 'Pod'),
  services: core('services', 'Service'),
  endpoints: core('endpoints', 'Endpoints'),
  configmaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount'),
  events: core('events', 'Event'),
  nodes: core('nodes', 'Node', false),
  namespaces: core('namespaces', 'Namespace', false),
  jobs: { group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true },
  replicaSets: { group: 'apps', version: 'v1', plural: 'replicasets', kind: 'ReplicaSet', namespaced: true },
  leases: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
  eventsV1: { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
  endpointSlices: { group: 'discovery.k8s.io', version: 'v1', plural: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  roles: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role', namespaced: true },
  roleBindings: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', kind: 'RoleBinding', namespaced: true },
  rayJobs: { group: 'ray.io', version: 'v1', plural: 'rayjobs', kind: 'RayJob', namespaced: true },
  rayClusters: { group: 'ray.io', version: 'v1', plural: 'rayclusters', kind: 'RayCluster', namespaced: true },
} as const satisfies Record<string, ResourceType>;

export function apiVersionOf(type: ResourceType): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** The well-known resource type of an object's apiVersion and kind (undefined for any other kind). */
export function resourceOf(apiVersion: string | undefined, kind: string | undefined): ResourceType | undefined {
  return (Object.values(resources) as ResourceType[]).find((t) => t.kind === kind && apiVersionOf(t) === apiVersion);
}

export interface ObjectRef {
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function resourcePath(type: ResourceType, ref: ObjectRef = {}): string {
  let path = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  if (type.namespaced && ref.namespace !== undefined && ref.namespace !== '') path += `/namespaces/${encodeURIComponent(ref.namespace)}`;
  path += `/${type.plural}`;
  if (ref.name !== undefined) path += `/${encodeURIComponent(ref.name)}`;
  if (ref.subresource !== undefined) path += `/${ref.subresource}`;
  return path;
}
