// The Lease object as a lock (coordination.k8s.io/v1), read and written with a per-call deadline so a hung
// API server cannot hold a renewal past the renew deadline.
import { resourcePath, resources } from '../client/resources.ts';
import type { KubeResult } from '../client/errors.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export type Lease = KubeObject & { spec?: LeaseSpec };

export interface LeaseLock {
  get(timeoutMs: number): Promise<KubeResult<Lease>>;
  create(spec: LeaseSpec, timeoutMs: number): Promise<KubeResult<Lease>>;
  /** PUT with `current`'s resourceVersion: 409 when someone else wrote it first. */
  update(current: Lease, spec: LeaseSpec, timeoutMs: number): Promise<KubeResult<Lease>>;
}

export function leaseLock(client: KubeClient, namespace: string, name: string): LeaseLock {
  const path = resourcePath(resources.leases, { namespace, name });
  return {
    get: (timeoutMs) => client.request<Lease>({ method: 'GET', path, signal: AbortSignal.timeout(timeoutMs) }),
    create: (spec, timeoutMs) =>
      client.request<Lease>({
        method: 'POST',
        path: resourcePath(resources.leases, { namespace }),
        body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec },
        signal: AbortSignal.timeout(timeoutMs),
      }),
    update: (current, spec, timeoutMs) =>
      client.request<Lease>({ method: 'PUT', path, body: { ...current, spec }, signal: AbortSignal.timeout(timeoutMs) }),
  };
}
