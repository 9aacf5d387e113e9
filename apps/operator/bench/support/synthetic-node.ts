// Bench-only stand-in for a kubelet in the synthetic scale mode: no processes. It watches head pods and marks
// each one Running and Ready at once with a fixed pod IP (where one Ray emulator answers for every cluster).
// Everything else (RayCluster status, submitter Jobs, RayJob status) is left to the operator and the API server.
import { formatKubeTime } from '@rayjob/kube-model';
import type { Json } from './rayjob-watch.ts';

export interface SyntheticNode {
  readonly marked: number;
  stop(): void;
}

const HEAD_PODS = 'labelSelector=ray.io%2Fnode-type%3Dhead';

function runningStatus(pod: Json, podIP: string): Json {
  const now = formatKubeTime(Date.now());
  const containers = (pod.spec?.containers ?? []) as Json[];
  return {
    phase: 'Running',
    podIP: podIP,
    podIPs: [{ ip: podIP }],
    hostIP: '127.0.0.1',
    startTime: now,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({ type, status: 'True', lastTransitionTime: now })),
    containerStatuses: containers.map((c) => ({ name: c.name, image: c.image, imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } } })),
  };
}

export function startSyntheticNode(url: string, podIP: string, concurrency = 8): SyntheticNode {
  const abort = new AbortController();
  const pending: Json[] = [];
  const done = new Set<string>();
  let active = 0;
  let marked = 0;
  const markRunning = async (seen: Json): Promise<void> => {
    const path = `${url}/api/v1/namespaces/${seen.metadata.namespace}/pods/${seen.metadata.name}`;
    // Retried with a fresh read: a 409 (someone wrote the pod meanwhile) or a reset connection on a loaded machine.
    for (let attempt = 1; attempt <= 8 && !abort.signal.aborted; attempt++) {
      try {
        const current = await fetch(path, { signal: abort.signal });
        if (current.status === 404) return;
        const pod = (await current.json()) as Json;
        const res = await fetch(`${path}/status`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...pod, status: runningStatus(pod, podIP) }), signal: abort.signal });
        await res.arrayBuffer();
        if (res.ok) {
          marked++;
          return;
        }
      } catch {
        // retried below
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  };
  const pump = (): void => {
    while (active < concurrency && pending.length) {
      const pod = pending.shift();
      active++;
      void markRunning(pod).catch(() => undefined).finally(() => {
        active--;
        pump();
      });
    }
  };
  const consider = (pod: Json): void => {
    const uid = pod?.metadata?.uid;
    if (!uid || done.has(uid) || pod.metadata.deletionTimestamp || pod.status?.phase === 'Running') return;
    done.add(uid);
    pending.push(pod);
    pump();
  };
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        const list = (await (await fetch(`${url}/api/v1/pods?${HEAD_PODS}`, { signal: abort.signal })).json()) as Json;
        for (const p of list.items ?? []) consider(p);
        const res = await fetch(`${url}/api/v1/pods?watch=true&${HEAD_PODS}&resourceVersion=${list.metadata.resourceVersion}`, { signal: abort.signal });
        const decoder = new TextDecoder();
        let buf = '';
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            const event = line.trim() ? (JSON.parse(line) as Json) : undefined;
            if (event?.type === 'ADDED' || event?.type === 'MODIFIED') consider(event.object);
          }
        }
      } catch {
        if (abort.signal.aborted) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return {
    get marked() {
      return marked;
    },
    stop: () => abort.abort(),
  };
}
