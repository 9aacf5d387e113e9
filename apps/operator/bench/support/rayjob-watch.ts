// Bench-only: watches RayJobs straight from the API server (not through the operator's counting proxy) and
// records, per RayJob, when each jobDeploymentStatus was first seen and the latest object.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface RayJobWatch {
  /** Epoch ms when `name` was first seen with this deployment status. */
  seenAt(name: string, status: string): number | undefined;
  latest(name: string): Json;
  /** Resolves with the object once `check` holds for it, or rejects after `timeoutMs`. */
  until(name: string, what: string, check: (job: Json) => boolean, timeoutMs: number): Promise<Json>;
  stop(): void;
}

export function watchRayJobs(url: string, namespace = 'default'): RayJobWatch {
  const seen = new Map<string, Map<string, number>>();
  const objects = new Map<string, Json>();
  const waiters = new Set<() => void>();
  const abort = new AbortController();
  const onObject = (obj: Json): void => {
    const name = obj?.metadata?.name;
    if (!name) return;
    objects.set(name, obj);
    const status = obj.status?.jobDeploymentStatus;
    if (status) {
      const times = seen.get(name) ?? new Map<string, number>();
      if (!times.has(status)) times.set(status, Date.now());
      seen.set(name, times);
    }
    for (const w of [...waiters]) w();
  };
  void (async () => {
    let rv = '';
    while (!abort.signal.aborted) {
      try {
        if (!rv) {
          const list = await (await fetch(`${url}/apis/ray.io/v1/namespaces/${namespace}/rayjobs`, { signal: abort.signal })).json() as Json;
          for (const item of list.items ?? []) onObject(item);
          rv = list.metadata?.resourceVersion ?? '';
        }
        const res = await fetch(`${url}/apis/ray.io/v1/namespaces/${namespace}/rayjobs?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`, { signal: abort.signal });
        const decoder = new TextDecoder();
        let buf = '';
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line.trim()) continue;
            const event = JSON.parse(line) as Json;
            if (event.type === 'ERROR') {
              rv = '';
              continue;
            }
            if (event.object?.metadata?.resourceVersion) rv = event.object.metadata.resourceVersion;
            if (event.type !== 'BOOKMARK') onObject(event.object);
          }
        }
      } catch {
        if (abort.signal.aborted) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  return {
    seenAt: (name, status) => seen.get(name)?.get(status),
    latest: (name) => objects.get(name),
    until(name, what, check, timeoutMs) {
      return new Promise((resolve, reject) => {
        const test = (): void => {
          const obj = objects.get(name);
          if (obj && check(obj)) {
            waiters.delete(test);
            clearTimeout(timer);
            resolve(obj);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for RayJob ${name} ${what}: ${JSON.stringify(objects.get(name)?.status)}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
    stop: () => abort.abort(),
  };
}
