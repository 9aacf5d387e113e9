// An event recorder like client-go's: events about an object (its "regarding"), written in the background
// as events.k8s.io/v1 (KubeRay's style: reason + action + note) or core/v1, so they show in
// `kubectl describe` and `kubectl get events`. Repeats of the same event update the existing one's count
// (series) instead of creating new objects, and more than 10 different notes for the same reason within
// the window collapse into one "(combined from similar events)" event, as client-go's correlator does.
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

interface Recorded {
  name: string;
  namespace: string;
  count: number;
  first: number;
  last: number;
}

const maxRemembered = 4096;

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

  const remember = (key: string, value: Recorded): void => {
    seen.delete(key);
    seen.set(key, value);
    if (seen.size > maxRemembered) seen.delete(seen.keys().next().value!);
  };

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
      if (!group || now - group.since > windowMs) similar.set(similarKey, (group = { notes: new Set(), since: now }));
      group.notes.add(note);
      const combined = group.notes.size > similarLimit;
      const shownNote = combined ? `(combined from similar events): ${note}` : note;
      const key = combined ? `${similarKey}|combined` : `${similarKey}|${action}|${note}`;
      const fields: EventFields = { regarding, type, reason, action, note: shownNote };
      chain = chain.then(() => write(fields, key)).catch((error: unknown) => log.error({ err: error }, 'event recorder failed'));
    },
    flush: () => chain,
  };
}
