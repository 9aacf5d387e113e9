// One HTTP exchange with the dashboard as the transports see it (undici's or node:http's sender).
import { classifyTransportError, describeTransportError } from './classify.ts';
import type { Redactor } from './redact.ts';
import type { UnavailableCause } from './result.ts';

/** One request as the senders (undici, node:http) see it: headers final, body serialised, signal combined. */
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

/** A request that got no answer, as both senders report it: the cause classified, the message redacted. */
export function transportFailure(method: string, path: string, error: unknown, redact: Redactor): HttpOutcome {
  return {
    kind: 'transport-error',
    cause: classifyTransportError(error),
    message: redact(`${method} ${path}: ${describeTransportError(error)}`),
  };
}
