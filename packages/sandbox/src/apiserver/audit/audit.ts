// The API server's audit log, as kube-apiserver writes it with --audit-policy-file at level Request: one
// audit.k8s.io/v1 Event per request at stage ResponseComplete (a watch completes when its stream ends), with who
// asked (also when the answer was 401/403), the RBAC verb and object the request resolved to, the answer's code and
// the request's body for writes. Tests read it to learn which calls a client made (least-privilege RBAC).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditSink } from './audit-event.ts';
import { requestObjects, requestUsers } from '../http/audit-notes.ts';
import { requestAttributes } from '../http/request-attributes.ts';
import { microNow } from '../encodings/microtime.ts';

export type { AuditEvent, AuditObjectRef, AuditSink } from './audit-event.ts';

/** Emits the request's audit event to `sink` once its response has been sent or its connection closed. */
export function auditRequest(sink: AuditSink, req: IncomingMessage, res: ServerResponse): void {
  const received = microNow();
  res.once('close', () => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const attributes = requestAttributes(req.method ?? 'GET', url);
    const user = requestUsers.get(req);
    const body = requestObjects.get(req);
    sink({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Request',
      auditID: randomUUID(),
      stage: 'ResponseComplete',
      requestURI: req.url ?? '/',
      verb: attributes.verb,
      ...(user && { user: { username: user.username, groups: user.groups } }),
      ...(req.headers['user-agent'] !== undefined && { userAgent: req.headers['user-agent'] }),
      ...(!('path' in attributes) && {
        objectRef: {
          resource: attributes.resource,
          apiGroup: attributes.group,
          ...(attributes.subresource !== undefined && { subresource: attributes.subresource }),
          ...(attributes.namespace !== undefined && { namespace: attributes.namespace }),
          ...(attributes.name !== undefined && { name: attributes.name }),
        },
      }),
      responseStatus: { code: res.statusCode },
      ...(body !== undefined && { requestObject: body }),
      requestReceivedTimestamp: received,
      stageTimestamp: microNow(),
    });
  });
}
