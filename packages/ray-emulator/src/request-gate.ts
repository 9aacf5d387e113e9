// Checks every request passes before routing, shared by plain HTTP and WebSocket upgrades:
// injected faults, Ray's browser-traffic filter, and token auth (ray-jobs-api.md §2).
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { isRayBrowserRequest } from '@rayjob/kube-model/ray-browser-traffic';
import { aiohttp500, authInvalid, authMissing, browserMethodRefused } from './ray-texts.ts';

export interface GateRefusal {
  status: number;
  body: string;
}

/** Since ~2.54 the head allows browsers only GET, HEAD and OPTIONS; before, it refused only POST and PUT. */
export function browserFilter(method: string, headers: IncomingHttpHeaders, allowList = true): GateRefusal | undefined {
  if (!isRayBrowserRequest(headers)) return undefined;
  const refused = allowList ? !['GET', 'HEAD', 'OPTIONS'].includes(method) : ['POST', 'PUT'].includes(method);
  if (!refused) return undefined;
  return { status: 405, body: browserMethodRefused(method) };
}

const exemptPaths = new Set([
  '/',
  '/favicon.ico',
  '/api/authentication_mode',
  '/api/authenticate',
  '/api/healthz',
  '/api/gcs_healthz',
  '/api/local_raylet_healthz',
  '/-/healthz',
]);

function presentedToken(headers: IncomingHttpHeaders): string | undefined {
  // First present source wins: Authorization, then X-Ray-Authorization, then the cookie.
  // An empty header counts as absent. A value without the `Bearer ` prefix never validates.
  for (const name of ['authorization', 'x-ray-authorization']) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return value.startsWith('Bearer ') ? value.slice('Bearer '.length) : '\0invalid';
  }
  const cookie = headers.cookie;
  if (typeof cookie === 'string') {
    for (const part of cookie.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === 'ray-authentication-token') return v.join('=');
    }
  }
  return undefined;
}

export function tokenAuth(path: string, headers: IncomingHttpHeaders, token: string | undefined): GateRefusal | undefined {
  if (token === undefined || exemptPaths.has(path) || path.startsWith('/static/')) return undefined;
  const presented = presentedToken(headers);
  if (presented === undefined) return { status: 401, body: authMissing };
  if (presented !== token) return { status: 403, body: authInvalid };
  return undefined;
}

/** Fault state consulted per request. */
export function createFaultGate() {
  let failNext = 0;
  let failStatus = 500;
  let slowMs = 0;
  return {
    fail5xx(count: number, status = 500): void {
      failNext = Math.max(0, Math.floor(count));
      failStatus = status;
    },
    slowAnswers(ms: number): void {
      slowMs = Math.max(0, ms);
    },
    delayMs: () => slowMs,
    /** Consumes one injected failure, if any is left; the body is what aiohttp / Ray would send. */
    takeFailure(path: string): GateRefusal | undefined {
      if (failNext <= 0) return undefined;
      failNext -= 1;
      if (failStatus === 500) return { status: 500, body: aiohttp500 };
      // Observed under load (FINDINGS.md §1): the GCS health check's own 503.
      if (failStatus === 503 && path === '/api/gcs_healthz') {
        return { status: 503, body: '503: Health check failed: RPC error: Deadline Exceeded' };
      }
      return { status: failStatus, body: `${failStatus}: ${STATUS_CODES[failStatus] ?? 'Error'}` };
    },
  };
}

export type FaultGate = ReturnType<typeof createFaultGate>;
