// The audit.k8s.io/v1 Event the sandbox's audit log emits (see audit.ts), apart so the API context can name the sink.
export interface AuditObjectRef {
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  apiGroup: string;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: 'Request';
  auditID: string;
  stage: 'ResponseComplete';
  requestURI: string;
  verb: string;
  /** Absent when the request carried credentials the server rejected (401). */
  user?: { username: string; groups: string[] };
  userAgent?: string;
  objectRef?: AuditObjectRef;
  responseStatus: { code: number };
  /** The decoded body of a create, update or patch. */
  requestObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

/** Where audit events go (kube-apiserver's --audit-log-path or webhook backend). */
export type AuditSink = (event: AuditEvent) => void;
