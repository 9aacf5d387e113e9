// One HTTP exchange with the dashboard as the transport sees it (node:http's sender).
import { classifyTransportError, describeTransportError } from './classify.ts';
import type { Redactor } from './redact.ts';
import type { UnavailableCause } from './result.ts';

/** One request as the sender sees it: headers final, body serialised, signal combined. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
  timeoutMs: number;
}

export type HttpOutcome =
  | { kind: 'answer'; status: number; body: string }
  | { kind: 'transport-error'; cause: UnavailableCause; message: string };

/** A request that got no answer: the cause classified, the message redacted. */
export function transportFailure(method: string, path: string, error: unknown, redact: Redactor): HttpOutcome {
  return {
    kind: 'transport-error',
    cause: classifyTransportError(error),
    message: redact(`${method} ${path}: ${describeTransportError(error)}`),
  };
}
