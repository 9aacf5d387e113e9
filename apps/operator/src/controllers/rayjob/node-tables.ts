import type { DriverNodeObservation } from '@rayjob/core';
import type { NodeLiveness, RayClient } from '@rayjob/ray-client';

/**
 * Driver-node liveness shared per cluster: one `GET /nodes?view=summary` answers every job on the cluster that
 * asks within `freshMs` (the reconciles of one wave of events), so N jobs cost one request, not N.
 */
export interface NodeTables {
  driverNode(clusterKey: string, client: RayClient, nodeId: string): Promise<DriverNodeObservation>;
  /** Milliseconds since this cluster's table was last asked for, if it was (within the last hour). */
  askedAgoMs(clusterKey: string): number | undefined;
  /** Requests actually sent (for the bench and tests). */
  readonly requests: number;
}

export function createNodeTables(freshMs = 1_000, now: () => number = Date.now): NodeTables {
  const tables = new Map<string, { at: number; table: Promise<(nodeId: string) => NodeLiveness> }>();
  let requests = 0;
  return {
    get requests() {
      return requests;
    },
    askedAgoMs(clusterKey) {
      const entry = tables.get(clusterKey);
      return entry ? now() - entry.at : undefined;
    },
    async driverNode(clusterKey, client, nodeId) {
      const t = now();
      let entry = tables.get(clusterKey);
      if (!entry || t - entry.at > freshMs) {
        requests += 1;
        entry = { at: t, table: client.nodeTable() };
        tables.set(clusterKey, entry);
        for (const [key, e] of tables) if (t - e.at > 3_600_000) tables.delete(key);
      }
      const liveness = (await entry.table)(nodeId);
      // "Inconclusive is not dead": only a table that lists the node DEAD, or omits it, is evidence.
      switch (liveness.kind) {
        case 'alive':
        case 'dead':
        case 'missing':
          return { kind: liveness.kind, nodeId };
        case 'inconclusive':
          return { kind: 'inconclusive', nodeId, reason: liveness.reason };
      }
    },
  };
}
