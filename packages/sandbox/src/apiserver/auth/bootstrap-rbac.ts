// The default roles and bindings kube-apiserver creates at start (labelled kubernetes.io/bootstrapping:
// rbac-defaults), reduced to what the sandbox serves: cluster-admin for system:masters, the aggregated
// admin/edit/view roles, and what every authenticated user may do (discovery, self reviews).
import type { KubeObject } from '../../store/types.ts';

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] };
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

const workloads: Rule[] = [
  { apiGroups: [''], resources: ['pods', 'pods/log', 'pods/status', 'services', 'services/status', 'endpoints', 'configmaps', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'serviceaccounts', 'replicationcontrollers', 'resourcequotas', 'limitranges', 'events'], verbs: read },
  { apiGroups: [''], resources: ['namespaces', 'namespaces/status'], verbs: read },
  { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'daemonsets', 'controllerrevisions'], verbs: read },
  { apiGroups: ['batch'], resources: ['jobs', 'jobs/status', 'cronjobs', 'cronjobs/status'], verbs: read },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: read },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'ingresses/status', 'networkpolicies'], verbs: read },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: read },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: read },
];
const editable: Rule[] = [
  { apiGroups: [''], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'pods/eviction', 'services', 'services/proxy', 'endpoints', 'configmaps', 'secrets', 'persistentvolumeclaims', 'serviceaccounts', 'replicationcontrollers', 'events'], verbs: write },
  { apiGroups: [''], resources: ['secrets'], verbs: read },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale', 'daemonsets'], verbs: write },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: write },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: write },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: write },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: write },
];
const administrative: Rule[] = [
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: [...read, ...write] },
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
];

const clusterRole = (name: string, rules: Rule[], labels: Record<string, string> = {}, aggregateFrom?: string[]): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels: { ...bootstrapLabels, ...labels }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
  rules,
  ...(aggregateFrom && { aggregationRule: { clusterRoleSelectors: aggregateFrom.map((to) => ({ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' } })) } }),
});

const binding = (name: string, role: string, groups: string[]): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name, labels: bootstrapLabels, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: groups.map((g) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g })),
});

// What the sandbox's node needs: a kubelet's verbs (kube-apiserver's bootstrap system:node role, narrowed to what
// is served) plus the node bundle's own work: binding pods (it schedules) and writing Endpoints (its endpoints
// controller). A real cluster authorizes kubelets with the Node authorizer; the sandbox binds this role to the
// system:nodes group instead (see docs/compatibility.md, N1).
const nodeRules: Rule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['create', 'get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete', 'patch'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['pods/binding', 'pods/eviction', 'serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'update', 'patch'] },
  { apiGroups: [''], resources: ['configmaps', 'secrets', 'services'], verbs: read },
  { apiGroups: [''], resources: ['endpoints'], verbs: [...read, 'create', 'update'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: [...read, 'create', 'update', 'patch', 'delete'] },
];

const discoveryPaths = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'];

export const bootstrapClusterRoles: KubeObject[] = [
  clusterRole('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]),
  clusterRole('admin', [], {}, ['admin']),
  clusterRole('edit', [], { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }, ['edit']),
  clusterRole('view', [], { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }, ['view']),
  clusterRole('system:aggregate-to-admin', administrative, { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }),
  clusterRole('system:aggregate-to-edit', editable, { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }),
  clusterRole('system:aggregate-to-view', workloads, { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }),
  clusterRole('system:basic-user', [
    { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] },
    { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
  ]),
  clusterRole('system:node', nodeRules),
  clusterRole('system:discovery', [{ nonResourceURLs: discoveryPaths, verbs: ['get'] }]),
  clusterRole('system:public-info-viewer', [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }]),
];

export const bootstrapClusterRoleBindings: KubeObject[] = [
  binding('cluster-admin', 'cluster-admin', ['system:masters']),
  binding('system:basic-user', 'system:basic-user', ['system:authenticated']),
  binding('system:discovery', 'system:discovery', ['system:authenticated']),
  binding('system:node', 'system:node', ['system:nodes']),
  binding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
];
