// API errors as typed values: the HTTP status and the Status reason the server sent, plus Retry-After, so
// callers branch on what happened (404 gone, 409 conflict, 410 expired, 429 throttled) instead of catching.
import type { StatusObject } from './types.ts';

export interface KubeError {
  /** HTTP status; 0 when no response arrived (connection refused, reset, timeout). */
  status: number;
  /** metav1.StatusReason (NotFound, AlreadyExists, Conflict, Expired, TooManyRequests, ...) or a transport reason. */
  reason: string;
  message: string;
  /** From the Retry-After header, or the Status details. */
  retryAfterSeconds?: number;
  method: string;
  path: string;
  details?: StatusObject['details'];
}

export type KubeResult<T> = { ok: true; value: T } | { ok: false; error: KubeError };

const reasonByStatus: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType',
  422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
};

function parseRetryAfter(header: string | undefined): number | undefined {
  if (header === undefined || header === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Turns a non-2xx response into a KubeError, reading a Status body when there is one. */
export function errorFromResponse(method: string, path: string, status: number, bodyText: string, retryAfterHeader?: string): KubeError {
  let body: StatusObject | undefined;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed !== null && typeof parsed === 'object' && (parsed as StatusObject).kind === 'Status') body = parsed as StatusObject;
  } catch {
    // not JSON: a proxy or load balancer answered; keep its text as the message
  }
  const retryAfterSeconds = parseRetryAfter(retryAfterHeader) ?? body?.details?.retryAfterSeconds;
  return {
    status,
    reason: body?.reason !== undefined && body.reason !== '' ? body.reason : (reasonByStatus[status] ?? (status >= 500 ? 'InternalError' : 'Unknown')),
    message: body?.message ?? (bodyText.trim().slice(0, 500) || `HTTP ${status}`),
    ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
    method,
    path,
    ...(body?.details !== undefined && { details: body.details }),
  };
}

export function errorFromException(method: string, path: string, error: unknown): KubeError {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const timeout = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT';
  const code = e.cause?.code ?? e.code;
  return {
    status: 0,
    reason: timeout ? 'Timeout' : e.name === 'AbortError' ? 'Aborted' : 'ConnectionError',
    message: `${method} ${path}: ${code !== undefined ? `${code} ` : ''}${e.cause?.message ?? e.message ?? String(error)}`,
    method,
    path,
  };
}

export const isNotFound = (e: KubeError): boolean => e.status === 404;
export const isConflict = (e: KubeError): boolean => e.status === 409 && e.reason !== 'AlreadyExists';
export const isAlreadyExists = (e: KubeError): boolean => e.status === 409 && e.reason === 'AlreadyExists';
export const isGone = (e: KubeError): boolean => e.status === 410;
export const isTooManyRequests = (e: KubeError): boolean => e.status === 429;
/** Errors worth trying again as they are: throttling, server trouble, no response. */
export const isRetryable = (e: KubeError): boolean => e.status === 0 || e.status === 429 || e.status >= 500;

/** One line for logs and Error messages; never carries request headers (tokens). */
export function describeError(e: KubeError): string {
  return `${e.method} ${e.path}: ${e.status === 0 ? '' : `${e.status} `}${e.reason}: ${e.message}`;
}
