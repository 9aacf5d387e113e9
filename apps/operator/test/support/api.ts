import { eventually as awaitCondition } from '@rayjob/test-support';

// A check that meets a state no retry can change ends its wait at once through this.
export { giveUp } from '@rayjob/test-support';
// Raw API calls for tests: status codes and bodies exactly as the API server sent them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function api(url: string, method: string, path: string, body?: unknown, contentType = 'application/json', headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': contentType, ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Json;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/**
 * Polls `check` until it returns something other than undefined/false, or fails after `ms` naming `what`. Without
 * `everyMs` the pause starts at 50 ms and grows to 250 ms (most waits here are for reconciles and pods, seconds
 * long: a fixed 50 ms poll spent CPU in both the test and the sandbox that grew with every second of a loaded
 * machine); a wait whose latency is asserted passes its `everyMs` and keeps that fixed pause.
 */
export const eventually = <T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000, everyMs?: number): Promise<T> =>
  awaitCondition(check, { what, withinMs: ms, ...(everyMs === undefined ? { everyMs: 50, maxEveryMs: 250 } : { everyMs }) });
