// What the Deployment and ReplicaSet controllers share: the three caches, their event recorders, and the pods
// each ReplicaSet has created but not yet seen (kube-runtime's expectations, observed by the pod informer).
import type { EventRecorder, Expectations, Informer, KubeClient } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import type { Deployment, ReplicaSet } from './types.ts';

export interface AppsState {
  client: KubeClient;
  now: () => number;
  random: () => number;
  log: (message: string) => void;
  rsEvents: EventRecorder;
  deployEvents: EventRecorder;
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  /**
   * Pods created but not yet seen in the cache, per ReplicaSet uid (client-go's expectations): a sync before the
   * cache catches up creates only the rest. On the wall clock: they are about the cache's lag.
   */
  expectations: Expectations;
}

export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
