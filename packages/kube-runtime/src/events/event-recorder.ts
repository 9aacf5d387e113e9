// An event recorder like client-go's: events about an object (its "regarding"), written in the background
// as events.k8s.io/v1 (KubeRay's style: reason + action + note) or core/v1, so they show in
// `kubectl describe` and `kubectl get events`. Repeats of the same event update the existing one's count
// (series) instead of creating new objects, and more than 10 different notes for the same reason within
// the window collapse into one "(combined from similar events)" event, as client-go's correlator does.
// Both memories are LRU caches of 4096 entries, as client-go's (maxLruCacheEntries): an operator that sees
// millions of objects over weeks remembers only the recent ones, and forgetting one only costs a new Event object
// instead of a count. Events waiting to be written are bounded too (client-go's broadcaster queue of 1000 drops
// when full): a slow API server makes the recorder drop events, never grow.
import { hostname } from 'node:os';
import { systemClock, type Clock } from '../clock.ts';
import { describeError, isNotFound } from '../client/errors.ts';
import { resources } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';
import { silentLogger, type Logger } from '../log.ts';
import { coreEventBody, eventsV1Body, seriesPatch, type EventFields } from './event-bodies.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /** Records in the background; never throws, never blocks a reconcile. */
  event(regarding: KubeObject, type: EventType, reason: string, action: string, note: string): void;
  /** Resolves when every recorded event has been written (or given up on). */
  flush(): Promise<void>;
  stats(): EventRecorderStats;
}

export interface EventRecorderOptions {
  client: KubeClient;
  /** reportingController / source.component, e.g. KubeRay's `rayjob-controller`. */
  component: string;
  /** reportingInstance / source.host. Default: the host name. */
  instance?: string;
  api?: 'events.k8s.io' | 'core';
  /** Repeats within this window update one event. Default 10 min (client-go's). */
  windowMs?: number;
  /** Distinct notes per (object, type, reason) before they are combined. Default 10 (client-go's). */
  similarLimit?: number;
  clock?: Clock;
  logger?: Logger;
}

/** Read the memory's size (tests and the bound's proof). */
export interface EventRecorderStats {
  remembered: number;
  similarGroups: number;
  queued: number;
  dropped: number;
}

interface Recorded {
  name: string;
  namespace: string;
  count: number;
  first: number;
  last: number;
}

const maxRemembered = 4096;
const maxQueued = 1000;

/** A Map used as an LRU cache: a set or a hit moves the key to the end; past `max`, the oldest goes. */
function lruSet<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const clock = options.clock ?? systemClock;
  const log = (options.logger ?? silentLogger).child({ component: options.component });
  const api = options.api ?? 'events.k8s.io';
  const windowMs = options.windowMs ?? 10 * 60_000;
  const similarLimit = options.similarLimit ?? 10;
  const instance = options.instance ?? hostname();
  const seen = new Map<string, Recorded>();
  const similar = new Map<string, { notes: Set<string>; since: number }>();
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;
  let dropped = 0;

  const remember = (key: string, value: Recorded): void => lruSet(seen, key, value, maxRemembered);

  const write = async (fields: EventFields, key: string): Promise<void> => {
    const now = clock.now();
    const previous = seen.get(key);
    const type = api === 'core' ? resources.events : resources.eventsV1;
    if (previous && now - previous.last < windowMs) {
      const next = { ...previous, count: previous.count + 1, last: now };
      const patched = await options.client.patch(type, { namespace: previous.namespace, name: previous.name }, seriesPatch(api, next.count, now, fields.note), 'merge');
      if (patched.ok) return remember(key, next);
      if (!isNotFound(patched.error)) return log.warn({ error: describeError(patched.error), reason: fields.reason }, 'could not update event');
    }
    const body = api === 'core' ? coreEventBody(fields, now, options.component, instance) : eventsV1Body(fields, now, options.component, instance);
    const created = await options.client.create<KubeObject>(type, body);
    if (!created.ok) return log.warn({ error: describeError(created.error), reason: fields.reason }, 'could not write event');
    remember(key, { name: created.value.metadata.name!, namespace: created.value.metadata.namespace!, count: 1, first: now, last: now });
  };

  return {
    event: (regarding, type, reason, action, note) => {
      const objectId = regarding.metadata.uid ?? `${regarding.metadata.namespace}/${regarding.metadata.name}`;
      const similarKey = `${objectId}|${type}|${reason}`;
      const now = clock.now();
      let group = similar.get(similarKey);
      if (!group || now - group.since > windowMs) group = { notes: new Set(), since: now };
      lruSet(similar, similarKey, group, maxRemembered);
      // Past the limit the group is combined for the rest of the window: its notes need not be kept.
      if (group.notes.size <= similarLimit) group.notes.add(note);
      const combined = group.notes.size > similarLimit;
      const shownNote = combined ? `(combined from similar events): ${note}` : note;
      const key = combined ? `${similarKey}|combined` : `${similarKey}|${action}|${note}`;
      if (queued >= maxQueued) {
        if (dropped++ % maxQueued === 0) log.warn({ queued, dropped, reason }, 'event queue full; dropping events');
        return;
      }
      queued += 1;
      const fields: EventFields = { regarding, type, reason, action, note: shownNote };
      chain = chain
        .then(() => write(fields, key))
        .catch((error: unknown) => log.error({ err: error }, 'event recorder failed'))
        .finally(() => void (queued -= 1));
    },
    flush: () => chain,
    stats: () => ({ remembered: seen.size, similarGroups: similar.size, queued, dropped }),
  };
}
