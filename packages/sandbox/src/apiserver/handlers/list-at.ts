// Lists at an exact resourceVersion, as kube-apiserver serves them from etcd: `resourceVersionMatch=Exact`, or (the
// legacy form client-go's pagers send) a `limit` with a resourceVersion other than "0". The store keeps no
// snapshots, so the list is rebuilt from the change history (undoing every change after it); once that history is
// compacted the answer is etcd's: 410 Expired "The resourceVersion for the provided list is too old.".
import type { Store } from '../../store/store.ts';
import type { KubeObject } from '../../store/types.ts';
import { badRequest, gone, tooLargeResourceVersion } from '../errors/status.ts';

export const listTooOld = 'The resourceVersion for the provided list is too old.';

/** The resourceVersion a list must be served at exactly, if it asks for one (validated as kube-apiserver does). */
export function exactListRv(query: URLSearchParams): number | undefined {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  if (match !== '' && rv === '') throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') throw badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan", ""`);
  if (match !== '' && query.get('continue')) throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
  if (match === 'Exact' && rv === '0') throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  const limited = Number(query.get('limit') ?? 0) > 0 && query.get('continue') === null;
  if (!(match === 'Exact' || (match === '' && limited && rv !== '' && rv !== '0'))) return undefined;
  const n = Number(rv);
  if (!Number.isInteger(n) || n <= 0) throw gone(`invalid resource version: ${rv}`);
  return n;
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** The bucket's objects (in `namespace`, when given) as they were at resourceVersion `rv`. */
export function listAt(store: Store, bucket: string, namespace: string | undefined, rv: number): KubeObject[] {
  const current = store.currentRv();
  if (rv > current) throw tooLargeResourceVersion(rv, current);
  const events = store.eventsSince(bucket, rv);
  if (events === undefined) throw gone(listTooOld);
  const objects = new Map(store.list(bucket).map((o) => [keyOf(o), o]));
  for (const event of [...events].reverse()) {
    if (event.type === 'ADDED') objects.delete(keyOf(event.object));
    else if (event.old) objects.set(keyOf(event.old), event.old);
  }
  return [...objects.values()].filter((o) => namespace === undefined || o.metadata.namespace === namespace);
}
