// Every call answers with a value, never a throw: callers (the submitter, the operator) must decide on each
// outcome, and a discriminated union makes the compiler check that they did.

/** Why the dashboard could not be reached or did not answer usefully. */
export type UnavailableCause =
  | 'refused' // nothing listens (dashboard down)
  | 'reset' // the connection was cut mid-request
  | 'timeout' // no answer within the per-request timeout
  | 'dns' // the host name does not resolve
  | 'tls' // certificate or handshake problem
  | 'server-error' // the dashboard answered 5xx (JobHead restart window, agent down, ...)
  | 'aborted' // the caller's signal aborted the call (nothing is known of the server; it may have acted)
  | 'other';

export type RayFailure =
  | { kind: 'not-found'; status: 404; message: string }
  /** Ray's duplicate submission id answer: HTTP 500 carrying "Please use a different submission_id". */
  | { kind: 'already-exists'; status: number; message: string }
  /** The request itself is refused (400/401/403/405, or Ray's 500 for deleting a non-terminal job). */
  | { kind: 'rejected'; status: number; message: string }
  | { kind: 'unavailable'; cause: UnavailableCause; status?: number; message: string }
  /** A 2xx whose body is not what Ray sends (schema mismatch, not JSON, unexpected redirect). */
  | { kind: 'bad-response'; status: number; message: string }
  /** The caller's own input is unusable (checked before anything is sent); the message names the field. */
  | { kind: 'invalid-input'; message: string };

export type RayResult<T> = { kind: 'ok'; value: T } | RayFailure;

export function ok<T>(value: T): RayResult<T> {
  return { kind: 'ok', value };
}

export function isOk<T>(result: RayResult<T>): result is { kind: 'ok'; value: T } {
  return result.kind === 'ok';
}
