// Maps transport errors and HTTP statuses to the result kinds. Kept apart from the I/O so the rules read as a
// table: what Ray's answer means for a caller deciding whether to retry, attach or give up.
import type { RayFailure, UnavailableCause } from './result.ts';

const duplicateMarker = 'Please use a different submission_id';
const nonTerminalDeleteMarker = 'but it is in a non-terminal state';

/** The last meaningful line of a Ray error body (most are Python tracebacks), bounded in size. */
export function summariseErrorBody(body: string): string {
  const lines = body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && l !== '.');
  const last = lines.at(-1) ?? '';
  const text = last === '' ? body.trim() : last;
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** Non-2xx answer -> failure kind. */
export function classifyStatus(status: number, body: string): RayFailure {
  const message = `HTTP ${status}: ${summariseErrorBody(body)}`;
  if (status === 404) return { kind: 'not-found', status: 404, message };
  if (body.includes(duplicateMarker)) return { kind: 'already-exists', status, message };
  // Ray refuses to delete a running job with a 500; retrying will not help, so it is a rejection.
  if (status === 500 && body.includes(nonTerminalDeleteMarker)) return { kind: 'rejected', status, message };
  if (status >= 500) return { kind: 'unavailable', cause: 'server-error', status, message };
  if (status >= 400) return { kind: 'rejected', status, message };
  return { kind: 'bad-response', status, message: `unexpected HTTP ${status} from the dashboard` };
}

const tlsCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/;

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; i < 4 && current && typeof current === 'object'; i += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function errorName(error: unknown): string | undefined {
  return error && typeof error === 'object' ? String((error as { name?: unknown }).name) : undefined;
}

/** Transport error (thrown by node:http or ws) -> cause. */
export function classifyTransportError(error: unknown): UnavailableCause {
  const name = errorName(error);
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout';
  const code = errorCode(error) ?? '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code)) return 'reset';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (tlsCodes.test(code)) return 'tls';
  return 'other';
}

export function describeTransportError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
