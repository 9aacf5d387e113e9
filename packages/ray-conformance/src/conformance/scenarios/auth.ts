/** Ray's token auth (`RAY_AUTH_MODE=token`): accepted credentials, 401/403 texts, exempt paths, WebSocket upgrade. */
import { expect } from 'vitest';
import type { Scenario } from '../scenario.ts';

export const authScenarios: Scenario[] = [
  {
    name: 'token auth: how a token is accepted, and the 401/403 texts',
    async run(ctx) {
      const token = ctx.target.authToken ?? '';
      const sid = ctx.sid('authed');
      // Only the headers given here are sent: the target's own auth header is dropped.
      const get = (path: string, headers: Record<string, string>) => ctx.observe(path, { headers: { authorization: '', ...headers } });
      await ctx.submit({ entrypoint: 'echo authed', submission_id: sid });
      return {
        missing: await get('/api/version', {}),
        wrong: await get('/api/version', { authorization: 'Bearer wrong-token' }),
        noBearerPrefix: await get('/api/version', { authorization: token }),
        bearer: await get(`/api/jobs/${sid}`, { authorization: `Bearer ${token}` }).then((o) => ('status' in o ? o.status : o)),
        xRayAuthorization: await get('/api/version', { 'x-ray-authorization': `Bearer ${token}` }).then((o) => ('status' in o ? o.status : o)),
        cookie: await get('/api/version', { cookie: `ray-authentication-token=${token}` }).then((o) => ('status' in o ? o.status : o)),
        submitWithoutToken: await ctx.observe('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo no' }, headers: { authorization: '' } }),
        jobsWithoutToken: await get(`/api/jobs/${sid}`, {}),
        nodesWithoutToken: await get('/nodes?view=summary', {}).then((o) => ('status' in o ? o.status : o)),
        authenticationMode: await get('/api/authentication_mode', {}),
        gcsHealthzExempt: await get('/api/gcs_healthz', {}),
      };
    },
    check(o) {
      const unauthorized = { status: 401, type: 'text/plain', text: 'Unauthorized: Missing authentication token' };
      const forbidden = { status: 403, type: 'text/plain', text: 'Forbidden: Invalid authentication token' };
      expect(o).toEqual({
        missing: unauthorized,
        wrong: forbidden,
        noBearerPrefix: forbidden,
        bearer: 200,
        xRayAuthorization: 200,
        cookie: 200,
        submitWithoutToken: unauthorized,
        jobsWithoutToken: unauthorized,
        nodesWithoutToken: 401,
        authenticationMode: { status: 200, type: 'application/json', json: { authentication_mode: 'token' } },
        gcsHealthzExempt: { status: 200, type: 'application/text', text: 'success' },
      });
    },
  },
  {
    name: 'token auth on the log tail: the upgrade without a token is a plain 401',
    async run(ctx) {
      const sid = ctx.sid('authtail');
      await ctx.submit({ entrypoint: 'echo tailed-with-token', submission_id: sid });
      const without = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 15_000, headers: { authorization: '' } });
      const wrong = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 15_000, headers: { authorization: 'Bearer nope' } });
      const withToken = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 150_000 });
      return {
        without: without.kind === 'rejected' ? { rejected: without.status, body: without.body } : without.kind,
        wrong: wrong.kind === 'rejected' ? { rejected: wrong.status, body: wrong.body } : wrong.kind,
        withToken: withToken.kind === 'closed' ? { code: withToken.code, hasOutput: withToken.frames.some((f) => f.text.includes('tailed-with-token')) } : withToken.kind,
      };
    },
    check(o) {
      expect(o).toEqual({
        without: { rejected: 401, body: 'Unauthorized: Missing authentication token' },
        wrong: { rejected: 403, body: 'Forbidden: Invalid authentication token' },
        withToken: { code: 1000, hasOutput: true },
      });
    },
  },
];
