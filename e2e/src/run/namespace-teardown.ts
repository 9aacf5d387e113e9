// After a scenario: what its pods said (for a failure's message) and its namespace removed with everything in
// it, awaited, so the next scenario does not share the CPU with the last one's processes shutting down.
import type { RestAccess } from '../drivers/rest-access.ts';
import { resourcePath } from '../drivers/rest-access.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type PodView = { metadata: { name: string }; status?: { containerStatuses?: Array<{ name: string; restartCount?: number }> } };

/** The last `lines` lines of every container in the namespace, and of its previous run when it restarted. */
export async function podLogTails(rest: RestAccess, namespace: string, lines: number): Promise<string> {
  const out: string[] = [];
  for (const pod of (await rest.list('pods', namespace)) as PodView[]) {
    for (const c of pod.status?.containerStatuses ?? []) {
      const runs = (c.restartCount ?? 0) > 0 ? [true, false] : [false];
      for (const previous of runs) {
        const query = `container=${encodeURIComponent(c.name)}&tailLines=${lines}${previous ? '&previous=true' : ''}`;
        const { status, text } = await rest.request('GET', `${resourcePath('pods', namespace, pod.metadata.name)}/log?${query}`);
        out.push(`--- ${pod.metadata.name}/${c.name}${previous ? ' (previous run)' : ''} (${status})\n${text.trimEnd()}`);
      }
    }
  }
  return out.join('\n');
}

/** Deletes the namespace and waits until it is gone (its pods' processes ended), at most `timeoutMs`. */
export async function removeNamespace(rest: RestAccess, namespace: string, timeoutMs: number): Promise<void> {
  const { status, text } = await rest.request('DELETE', `/api/v1/namespaces/${namespace}`);
  if (status >= 300 && status !== 404) throw new Error(`delete namespace ${namespace}: ${status} ${text.slice(0, 200)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await rest.request('GET', `/api/v1/namespaces/${namespace}`);
    if (left.status === 404) return;
    if (Date.now() >= deadline) throw new Error(`namespace ${namespace} still there ${timeoutMs / 1000} s after its deletion`);
    await sleep(500);
  }
}
