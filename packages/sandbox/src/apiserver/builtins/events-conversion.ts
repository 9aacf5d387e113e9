// Core v1 Events and events.k8s.io/v1 Events are one stored object seen through two APIs (as in the real
// server), so `kubectl describe` (core API) shows events an operator recorded through events.k8s.io.
// Storage form is core v1; these convert to and from the events.k8s.io/v1 shape.
import type { KubeObject } from '../../store/types.ts';

type Obj = Record<string, unknown>;

function drop(obj: Obj): Obj {
  for (const k of Object.keys(obj)) if (obj[k] === undefined) delete obj[k];
  return obj;
}

export function eventsV1FromCore(core: KubeObject): KubeObject {
  const c = core as Obj;
  const source = (c.source ?? {}) as Obj;
  return drop({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: core.metadata,
    eventTime: c.eventTime ?? null,
    series: c.series,
    reportingController: c.reportingComponent ?? source.component,
    reportingInstance: c.reportingInstance ?? source.host,
    action: c.action,
    reason: c.reason,
    regarding: c.involvedObject,
    related: c.related,
    note: c.message,
    type: c.type,
    deprecatedSource: c.source,
    deprecatedFirstTimestamp: c.firstTimestamp,
    deprecatedLastTimestamp: c.lastTimestamp,
    deprecatedCount: c.count,
  }) as KubeObject;
}

export function coreFromEventsV1(ev: KubeObject): KubeObject {
  const e = ev as Obj;
  const series = e.series as Obj | undefined;
  return drop({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: ev.metadata,
    involvedObject: e.regarding ?? {},
    reason: e.reason,
    message: e.note,
    source: e.deprecatedSource ?? { component: e.reportingController, host: e.reportingInstance },
    firstTimestamp: e.deprecatedFirstTimestamp ?? null,
    lastTimestamp: e.deprecatedLastTimestamp ?? (series?.lastObservedTime as string | undefined) ?? null,
    count: e.deprecatedCount ?? (series?.count as number | undefined),
    type: e.type,
    eventTime: e.eventTime,
    series: e.series,
    action: e.action,
    related: e.related,
    reportingComponent: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
  }) as KubeObject;
}
