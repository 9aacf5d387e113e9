// Built-in kinds the sandbox stores and serves but runs no controller for (no Ingress controller, no network
// policy enforcement, no autoscaler...): KubeRay's samples and Helm charts create them, and a real cluster
// accepts them. Same REST semantics as every other kind (defaults of the generic kind only).
import { defineResource, type ResourceSpec } from '../registry/define-resource.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { defaultTable } from '../tables/tables-builtin.ts';

/** A stored kind's names (as every built-in's), and whether it has a status subresource. */
type StoredSpec = Pick<ResourceSpec, 'group' | 'version' | 'plural' | 'kind' | 'namespaced' | 'shortNames' | 'categories'> & { status?: boolean };

function stored(spec: StoredSpec): ResourceType {
  const { status, ...names } = spec;
  return defineResource({ ...names, subresources: status ? ['status'] : [], statusSplit: status ?? false, table: defaultTable });
}

export const storedResources: ResourceType[] = [
  stored({ group: '', plural: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] }),
  stored({ group: '', plural: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true }),
  stored({ group: '', plural: 'replicationcontrollers', kind: 'ReplicationController', shortNames: ['rc'], categories: ['all'], status: true }),
  stored({ group: '', plural: 'podtemplates', kind: 'PodTemplate' }),
  stored({ group: 'networking.k8s.io', plural: 'ingresses', kind: 'Ingress', shortNames: ['ing'], status: true }),
  stored({ group: 'networking.k8s.io', plural: 'ingressclasses', kind: 'IngressClass', namespaced: false }),
  stored({ group: 'networking.k8s.io', plural: 'networkpolicies', kind: 'NetworkPolicy', shortNames: ['netpol'] }),
  stored({ group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'], status: true }),
  stored({ group: 'storage.k8s.io', plural: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] }),
  stored({ group: 'node.k8s.io', plural: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false }),
  stored({ group: 'admissionregistration.k8s.io', plural: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] }),
  stored({ group: 'admissionregistration.k8s.io', plural: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] }),
  stored({ group: 'apps', plural: 'controllerrevisions', kind: 'ControllerRevision' }),
];
