// Test-only stand-in for the RayCluster controller (its own issue builds the real one): turns each RayCluster
// into a head pod and the cluster's head Service, and marks the cluster `ready` once the head pod is Ready
// (sticky, as KubeRay's state). The RayJob controller under test only observes these objects, so it does not
// care who made them. Workers are not made: the Ray emulator's head runs every job.
import { api, type Json } from './api.ts';

export interface StandIn {
  stop(): Promise<void>;
  /** Head pods created so far, by cluster name. */
  readonly heads: Map<string, string>;
}

const headCommand = 'ulimit -n 65536; ray start --head --dashboard-host=0.0.0.0 --num-cpus=1 --block';

export function startRayClusterStandIn(url: string, intervalMs = 150): StandIn {
  const heads = new Map<string, string>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        await pass(url, heads);
      } catch {
        // the API server is going away at the end of a test
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    heads,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

async function pass(url: string, heads: Map<string, string>): Promise<void> {
  const clusters = (await api(url, 'GET', '/apis/ray.io/v1/rayclusters')).body?.items ?? [];
  const pods: Json[] = (await api(url, 'GET', '/api/v1/pods?labelSelector=ray.io%2Fnode-type%3Dhead')).body?.items ?? [];
  for (const cluster of clusters) {
    if (cluster.metadata.deletionTimestamp) continue;
    const ns = cluster.metadata.namespace;
    const name = cluster.metadata.name;
    const head = pods.find((p) => p.metadata.namespace === ns && p.metadata.labels?.['ray.io/cluster'] === name);
    const owner = { apiVersion: 'ray.io/v1', kind: 'RayCluster', name, uid: cluster.metadata.uid, controller: true, blockOwnerDeletion: true };
    const template = cluster.spec.headGroupSpec.template;
    if (!head) {
      // A provisioned head that vanished is not recreated when the RayJob said so (SidecarMode).
      if (heads.has(name) && cluster.metadata.annotations?.['ray.io/disable-provisioned-head-restart'] === 'true') continue;
      const podName = `${name}-head-${Math.random().toString(36).slice(2, 7)}`;
      const containers = template.spec.containers.map((c: Json, i: number) =>
        i === 0 && !c.command
          ? {
              ...c,
              command: ['/bin/bash', '-lc', '--'],
              args: [headCommand],
              readinessProbe: { exec: { command: ['bash', '-c', 'wget -T 2 -q -O- http://localhost:8265/api/gcs_healthz | grep success'] }, periodSeconds: 1 },
            }
          : c,
      );
      const labels = { ...(template.metadata?.labels ?? {}), 'ray.io/cluster': name, 'ray.io/node-type': 'head', 'ray.io/identifier': `${name}-head`, 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/created-by': 'kuberay-operator' };
      await api(url, 'POST', `/api/v1/namespaces/${ns}/pods`, {
        metadata: { name: podName, namespace: ns, labels, ownerReferences: [owner] },
        spec: { ...template.spec, containers, restartPolicy: template.spec.restartPolicy ?? 'Always' },
      });
      heads.set(name, podName);
      const port = containers[0].ports?.find((p: Json) => p.name === 'dashboard')?.containerPort ?? 8265;
      await api(url, 'POST', `/api/v1/namespaces/${ns}/services`, {
        metadata: { name: `${name}-head-svc`, namespace: ns, labels: { 'ray.io/cluster': name, 'ray.io/node-type': 'head' }, ownerReferences: [owner] },
        spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'ray.io/cluster': name, 'ray.io/node-type': 'head' }, ports: [{ name: 'dashboard', port }, { name: 'gcs-server', port: 6379 }] },
      });
      continue;
    }
    const ready = head.status?.conditions?.some((c: Json) => c.type === 'Ready' && c.status === 'True');
    if (ready && cluster.status?.state !== 'ready') {
      await api(url, 'PUT', `/apis/ray.io/v1/namespaces/${ns}/rayclusters/${name}/status`, {
        ...cluster,
        status: { ...(cluster.status ?? {}), state: 'ready', readyWorkerReplicas: 0, desiredWorkerReplicas: 0, head: { podName: head.metadata.name, podIP: head.status.podIP, serviceName: `${name}-head-svc` } },
      });
    }
  }
}
