// What a scenario needs from a cluster, whichever cluster it is: apply, read, patch, delete, reach a Ray
// dashboard through the API server's service proxy, and trigger the manual tests' faults. Drivers differ in
// HOW they do it (in-process calls on the sandbox; only `kubectl` on any cluster), never in what it means.
import type { FaultName } from '../scenario/types.ts';

export type KubeObject = {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; labels?: Record<string, string>; deletionTimestamp?: string; ownerReferences?: Array<{ uid: string; kind: string; name: string }> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
};

/** The kinds scenarios read, by their REST resource name. */
export type Resource = 'rayjobs' | 'rayclusters' | 'jobs' | 'pods' | 'services' | 'events';

export interface DashboardAnswer {
  status: number;
  body: string;
}

/** What a fault is done to: the scenario's RayJob and what the driver found for it just before. */
export interface FaultTarget {
  namespace: string;
  rayJob: string;
  /** Name of the RayJob's current RayCluster, its head pod and its submitter pod, if any. */
  cluster?: string;
  headPod?: string;
  submitterPod?: string;
}

export interface Driver {
  readonly name: 'sandbox' | 'kubectl' | 'kind';
  /** Why this driver cannot run here (no Docker, no kind, ...); undefined when it can. */
  readonly skipped?: string;
  /** The kubeconfig a person would use to look at the same cluster. */
  readonly kubeconfigPath: string;
  /** Abilities beyond the common ones (operator restarts need a driver that owns the operator process). */
  readonly abilities: ReadonlySet<'operatorRestart' | 'realRay'>;
  createNamespace(namespace: string): Promise<void>;
  deleteNamespace(namespace: string): Promise<void>;
  apply(object: KubeObject | Record<string, unknown>): Promise<void>;
  get(resource: Resource, namespace: string, name: string): Promise<KubeObject | undefined>;
  list(resource: Resource, namespace: string, labelSelector?: string): Promise<KubeObject[]>;
  /** Deletes an object (background propagation, as kubectl); an absent object is not an error. */
  remove(resource: Resource, namespace: string, name: string): Promise<void>;
  /** JSON merge patch (what `kubectl patch --type merge` sends). */
  mergePatch(resource: Resource, namespace: string, name: string, patch: Record<string, unknown>): Promise<void>;
  /** A GET on the RayCluster's dashboard through the API server's service proxy. */
  dashboard(namespace: string, headService: string, path: string): Promise<DashboardAnswer | undefined>;
  /** A POST of a JSON body to the dashboard through the same proxy (a job submitted by hand). */
  dashboardPost(namespace: string, headService: string, path: string, body: unknown): Promise<DashboardAnswer>;
  fault(fault: FaultName, target: FaultTarget): Promise<void>;
  close(): Promise<void>;
}
