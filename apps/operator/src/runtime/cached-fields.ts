// What the operator's caches keep of each kind: exactly the fields its controllers read (controller-runtime's
// cache transforms, as KubeRay strips its Pod cache). Everything else is dropped before an object enters a cache:
// managedFields always; of Pods, Jobs and Services all but a few fields (a Pod's spec: env, volumes, probes,
// tolerations; its node and QoS details; a Job's pod template).
// test/cached-fields.test.ts runs the controllers over full objects and fails when they read a field not listed
// here, or when a field listed here is never read: change this list with the code that reads.
import { rayClusterAnnotationKeys } from '@rayjob/core';
import { keepFieldsTransform, type KeepRule, type KubeObject } from '@rayjob/kube-runtime';

/** The operator's objects carry it (KubeRay's label): the Job cache sees only these. */
export const CREATED_BY_SELECTOR = 'app.kubernetes.io/created-by=kuberay-operator';
/** Every Ray Pod (KubeRay caches head, worker and redis-cleanup Pods); node-type is a label users cannot override. */
export const RAY_POD_SELECTOR = 'ray.io/node-type';
/** The submitter Jobs' pods: the operator's other Pods. Disjoint from RAY_POD_SELECTOR, so no Pod is cached twice. */
export const SUBMITTER_POD_SELECTOR = `${CREATED_BY_SELECTOR},!${RAY_POD_SELECTOR}`;

/** Identity: what the informer itself needs (keys, and the relist's resourceVersion comparison). */
const identity = { name: true, namespace: true, resourceVersion: true } as const satisfies KeepRule;
const ownerReference = [{ apiVersion: true, kind: true, name: true, uid: true, controller: true }] as const satisfies KeepRule;
const terminated = { exitCode: true, reason: true, message: true, finishedAt: true } as const satisfies KeepRule;
const condition = { type: true, status: true, reason: true, message: true } as const satisfies KeepRule;

/** Each kind's allow-list, by resource plural. */
export const cachedFields: Readonly<Record<string, KeepRule>> = {
  // The custom resources are the operator's input, parsed whole (zod) and copied into what it builds: kept whole.
  rayjobs: true,
  rayclusters: true,
  // Head, worker and submitter pods: their state, not their spec (env, volumes, probes), nor scheduling details.
  pods: {
    metadata: { ...identity, labels: true, ownerReferences: ownerReference, deletionTimestamp: true, annotations: { [rayClusterAnnotationKeys.kuberayVersion]: true, [rayClusterAnnotationKeys.upgradeStrategyHash]: true } },
    spec: { containers: [{ name: true }], restartPolicy: true },
    status: {
      phase: true,
      podIP: true,
      conditions: [condition],
      containerStatuses: [{ name: true, restartCount: true, state: { waiting: { reason: true, message: true }, terminated }, lastState: { terminated } }],
    },
  },
  // Submitter Jobs: whose they are and how they ended; their pod template is never read back.
  jobs: {
    metadata: { ...identity, uid: true, labels: true, ownerReferences: ownerReference, deletionTimestamp: true },
    status: { conditions: [{ ...condition, lastTransitionTime: true }] },
  },
  // Head Services: where the head is reached.
  services: {
    metadata: { ...identity, labels: true, ownerReferences: ownerReference },
    spec: { clusterIP: true, selector: { 'ray.io/cluster': true }, ports: [{ name: true, port: true, targetPort: true, nodePort: true }] },
  },
};

/** A cache transform per resource plural (none: the cache keeps the object as listed, without managedFields). */
export type CacheTransforms = Readonly<Record<string, ((obj: KubeObject) => KubeObject) | undefined>>;

export const cacheTransforms: CacheTransforms = Object.fromEntries(Object.entries(cachedFields).map(([plural, rule]) => [plural, keepFieldsTransform<KubeObject>(rule)]));
