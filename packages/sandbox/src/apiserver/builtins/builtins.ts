// The built-in resources the sandbox serves, with the behaviour hooks each needs.
import type { KubeObject } from '../../store/types.ts';
import {
  defaultDeployment,
  defaultJob,
  defaultPod,
  defaultSecret,
  defaultService,
  prepareJobCreate,
  prepareNamespaceCreate,
  preparePodCreate,
  prepareServiceCreate,
} from './defaults-builtin.ts';
import { admissionPolicyResources } from '../admission/plugins/policy-resources.ts';
import { reviewResources } from '../auth/filters/requests.ts';
import { storedResources } from './builtins-stored.ts';
import { validateCrd } from '../schema/crd-validation.ts';
import { coreFromEventsV1, eventsV1FromCore } from './events-conversion.ts';
import { invalidValue, requiredValue } from '../errors/field-errors.ts';
import { checkMicroTime, checkTime } from '../encodings/microtime.ts';
import { builtinScalePaths } from '../handlers/scale.ts';
import { defineResource, type ResourceSpec } from '../registry/define-resource.ts';
import type { Registry, ResourceType, TableShape } from '../registry/resource-types.ts';
import type { StatusCause } from '../errors/status.ts';
import {
  configMapTable,
  createdAtTable,
  defaultTable,
  deploymentTable,
  endpointsTable,
  eventTable,
  jobTable,
  leaseTable,
  namespaceTable,
  nodeTable,
  podTable,
  replicaSetTable,
  secretTable,
  serviceAccountTable,
  serviceTable,
} from '../tables/tables-builtin.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

/** A built-in kind: the common values, with the default table unless the kind has its own. */
const builtin = (spec: Omit<ResourceSpec, 'table'> & { table?: TableShape }): ResourceType => defineResource({ ...spec, table: spec.table ?? defaultTable });

function validatePod(pod: KubeObject): StatusCause[] {
  const containers = o(pod.spec).containers;
  if (!Array.isArray(containers) || containers.length === 0) return [requiredValue('spec.containers')];
  const causes: StatusCause[] = [];
  containers.forEach((c: Obj, i) => {
    if (!c.name) causes.push(requiredValue(`spec.containers[${i}].name`));
    if (!c.image) causes.push(requiredValue(`spec.containers[${i}].image`));
  });
  return causes;
}

function validateJob(job: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = o(job.spec);
  const causes: StatusCause[] = [];
  const containers = o(o(spec.template).spec).containers;
  if (!Array.isArray(containers) || containers.length === 0) causes.push(requiredValue('spec.template.spec.containers'));
  const rp = o(o(spec.template).spec).restartPolicy;
  if (rp !== 'Never' && rp !== 'OnFailure') {
    causes.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(rp)}: supported values: "OnFailure", "Never"`, field: 'spec.template.spec.restartPolicy' });
  }
  if (old && JSON.stringify(o(old.spec).selector) !== JSON.stringify(spec.selector)) {
    causes.push(invalidValue('spec.selector', spec.selector, 'field is immutable'));
  }
  return causes;
}

/** events.k8s.io/v1 Events print as kube-apiserver prints them: the same rows as their core/v1 form. */
const eventsV1Table: TableShape = { columns: eventTable.columns, cells: (ev, now) => eventTable.cells(coreFromEventsV1(ev), now) };

const requiredEventsV1 = ['eventTime', 'reportingController', 'reportingInstance', 'action', 'reason'] as const;

function validateEventsV1(ev: KubeObject): StatusCause[] {
  const e = ev as Obj;
  return requiredEventsV1.filter((f) => e[f] === undefined || e[f] === null || e[f] === '').map((f) => requiredValue(f));
}

function decodeEvent(ev: KubeObject): string | undefined {
  const e = ev as Obj;
  return (
    checkMicroTime(e.eventTime) ??
    checkMicroTime(o(e.series).lastObservedTime) ??
    checkTime(e.firstTimestamp ?? e.deprecatedFirstTimestamp) ??
    checkTime(e.lastTimestamp ?? e.deprecatedLastTimestamp)
  );
}

function decodeLease(lease: KubeObject): string | undefined {
  const spec = o(lease.spec);
  return checkMicroTime(spec.acquireTime) ?? checkMicroTime(spec.renewTime);
}

export const builtinResources: ResourceType[] = [
  builtin({ plural: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], subresources: ['status', 'finalize'], statusSplit: true, table: namespaceTable, extra: { prepareCreate: prepareNamespaceCreate } }),
  builtin({ plural: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], subresources: ['status'], statusSplit: true, table: nodeTable }),
  builtin({
    plural: 'pods',
    kind: 'Pod',
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'log', 'binding', 'eviction', 'exec', 'portforward', 'proxy', 'ephemeralcontainers', 'attach'],
    statusSplit: true,
    table: podTable,
    extra: { applyDefaults: defaultPod, prepareCreate: preparePodCreate, validate: (p) => validatePod(p) },
  }),
  builtin({ plural: 'services', kind: 'Service', shortNames: ['svc'], categories: ['all'], subresources: ['status', 'proxy'], statusSplit: true, table: serviceTable, extra: { applyDefaults: defaultService, prepareCreate: prepareServiceCreate } }),
  builtin({ plural: 'endpoints', kind: 'Endpoints', shortNames: ['ep'], table: endpointsTable, extra: { listKind: 'EndpointsList', singular: 'endpoints' } }),
  builtin({ plural: 'events', kind: 'Event', shortNames: ['ev'], table: eventTable, bucket: '/events', extra: { decodeCheck: decodeEvent } }),
  builtin({ plural: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'], table: configMapTable }),
  builtin({ plural: 'secrets', kind: 'Secret', table: secretTable, extra: { applyDefaults: defaultSecret } }),
  builtin({ plural: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'], subresources: ['token'], table: serviceAccountTable }),
  builtin({ plural: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', shortNames: ['pvc'], subresources: ['status'], statusSplit: true }),
  builtin({ plural: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], subresources: ['status'], statusSplit: true }),
  builtin({ group: 'events.k8s.io', plural: 'events', kind: 'Event', shortNames: ['ev'], table: eventsV1Table, bucket: '/events', extra: { fromStorage: eventsV1FromCore, toStorage: coreFromEventsV1, decodeCheck: decodeEvent, validate: (e, ctx) => (ctx.operation === 'create' ? validateEventsV1(e) : []) } }),
  builtin({ group: 'apps', plural: 'deployments', kind: 'Deployment', shortNames: ['deploy'], categories: ['all'], subresources: ['status', 'scale'], statusSplit: true, table: deploymentTable, extra: { applyDefaults: defaultDeployment, scale: builtinScalePaths } }),
  builtin({ group: 'apps', plural: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], categories: ['all'], subresources: ['status', 'scale'], statusSplit: true, table: replicaSetTable, extra: { scale: builtinScalePaths } }),
  builtin({ group: 'apps', plural: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], categories: ['all'], subresources: ['status', 'scale'], statusSplit: true, extra: { scale: builtinScalePaths } }),
  builtin({ group: 'apps', plural: 'daemonsets', kind: 'DaemonSet', shortNames: ['ds'], categories: ['all'], subresources: ['status'], statusSplit: true }),
  builtin({
    group: 'batch',
    plural: 'jobs',
    kind: 'Job',
    categories: ['all'],
    subresources: ['status'],
    statusSplit: true,
    table: jobTable,
    extra: { applyDefaults: defaultJob, prepareCreate: prepareJobCreate, validate: (j, ctx) => validateJob(j, ctx.old), defaultPropagation: 'Orphan' },
  }),
  builtin({ group: 'batch', plural: 'cronjobs', kind: 'CronJob', shortNames: ['cj'], categories: ['all'], subresources: ['status'], statusSplit: true }),
  builtin({ group: 'coordination.k8s.io', plural: 'leases', kind: 'Lease', table: leaseTable, extra: { decodeCheck: decodeLease } }),
  builtin({ group: 'policy', plural: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'], subresources: ['status'], statusSplit: true }),
  builtin({ group: 'rbac.authorization.k8s.io', plural: 'roles', kind: 'Role', table: createdAtTable }),
  builtin({ group: 'rbac.authorization.k8s.io', plural: 'rolebindings', kind: 'RoleBinding', table: createdAtTable }),
  builtin({ group: 'rbac.authorization.k8s.io', plural: 'clusterroles', kind: 'ClusterRole', namespaced: false, table: createdAtTable }),
  builtin({ group: 'rbac.authorization.k8s.io', plural: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false, table: createdAtTable }),
  builtin({ group: 'discovery.k8s.io', plural: 'endpointslices', kind: 'EndpointSlice' }),
  builtin({ group: 'scheduling.k8s.io', plural: 'priorityclasses', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] }),
  builtin({
    group: 'apiextensions.k8s.io',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
    statusSplit: true,
    table: createdAtTable,
    extra: { validate: (crd) => validateCrd(crd) },
  }),
];

export function registerBuiltins(registry: Registry): void {
  for (const rt of [...builtinResources, ...storedResources, ...admissionPolicyResources, ...reviewResources]) registry.add(rt);
}
