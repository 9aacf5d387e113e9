// The Event objects themselves, in both APIs. Names follow client-go: <object name>.<hex nanoseconds>.
import type { KubeObject } from '../client/types.ts';
import { clipToBytes, EVENT_NOTE_MAX_BYTES } from './clip-note.ts';
import { formatKubeTime, formatMicroTime } from '@rayjob/kube-model';

export interface EventFields {
  regarding: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

function reference(obj: KubeObject): Record<string, string> {
  const m = obj.metadata;
  return Object.fromEntries(
    Object.entries({ apiVersion: obj.apiVersion, kind: obj.kind, name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion }).filter(([, v]) => v !== undefined && v !== ''),
  ) as Record<string, string>;
}

function meta(fields: EventFields, now: number): { name: string; namespace: string } {
  const nanos = BigInt(now) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
  return { name: `${fields.regarding.metadata.name}.${nanos.toString(16)}`, namespace: fields.regarding.metadata.namespace || 'default' };
}

/** The API server rejects an events.k8s.io note over 1 KiB of UTF-8; keep the head. */
const clip = (s: string): string => clipToBytes(s, EVENT_NOTE_MAX_BYTES);

export function eventsV1Body(fields: EventFields, now: number, controller: string, instance: string): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: meta(fields, now),
    eventTime: formatMicroTime(now),
    reportingController: controller,
    reportingInstance: instance,
    action: fields.action,
    reason: fields.reason,
    regarding: reference(fields.regarding),
    note: clip(fields.note),
    type: fields.type,
  };
}

export function coreEventBody(fields: EventFields, now: number, component: string, host: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(fields, now),
    involvedObject: reference(fields.regarding),
    reason: fields.reason,
    message: clip(fields.note),
    type: fields.type,
    action: fields.action,
    source: { component, host },
    reportingComponent: component,
    reportingInstance: host,
    firstTimestamp: formatKubeTime(now),
    lastTimestamp: formatKubeTime(now),
    count: 1,
  };
}

export function seriesPatch(api: 'events.k8s.io' | 'core', count: number, now: number, note: string): Record<string, unknown> {
  return api === 'core'
    ? { count, lastTimestamp: formatKubeTime(now), message: clip(note) }
    : { series: { count, lastObservedTime: formatMicroTime(now) }, note: clip(note) };
}
