// Why GCS is not healthy yet, in a few words for the wait line: a user staring at "Waiting ..." needs to tell a
// dashboard that is not up yet (connection refused) from a wrong address (no such host) or a head that answers
// but is not ready (an HTTP status).
import type { RayFailure } from '@rayjob/ray-client';

export function unhealthyReason(failure: RayFailure, baseUrl: string): string {
  if (failure.kind === 'unavailable') {
    switch (failure.cause) {
      case 'refused':
        return 'connection refused';
      case 'dns':
        return `no such host ${hostOf(baseUrl)}`;
      case 'timeout':
        return 'no answer in time';
      case 'reset':
        return 'connection reset';
      case 'aborted':
        return 'cancelled';
      case 'tls':
        return `TLS: ${failure.message}`;
      case 'server-error':
        return httpStatus(failure.status, failure.message);
      case 'other':
        return failure.message;
    }
  }
  if ('status' in failure) return httpStatus(failure.status, failure.message);
  return failure.message;
}

/** `HTTP 503` plus Ray's one-line reason when it gave one, kept short for a status line. */
function httpStatus(status: number | undefined, message: string): string {
  if (status === undefined) return message;
  const detail = message.replace(/^HTTP \d+:?\s*/, '').trim();
  const short = detail.length > 120 ? `${detail.slice(0, 120)}…` : detail;
  return short === '' ? `HTTP ${status}` : `HTTP ${status}: ${short}`;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return baseUrl;
  }
}
