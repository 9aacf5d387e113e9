// Reads a watch response: newline-delimited JSON events over a chunked body. A non-200 answer (410 when
// the resourceVersion is too old) becomes a KubeError; an ERROR event is handed to the caller as sent.
import { request } from 'undici';
import type { Connection } from './connection.ts';
import { errorFromException, errorFromResponse, type KubeResult } from './errors.ts';
import type { KubeObject, WatchEvent } from './types.ts';

export interface WatchStreamRequest<T extends KubeObject> {
  path: string;
  query: string;
  userAgent: string;
  signal: AbortSignal;
  /** No bytes (not even a bookmark) for this long ends the request with a Timeout error. 0 = never. */
  idleTimeoutMs: number;
  onEvent: (event: WatchEvent<T>) => void;
  /** The answer's status when its headers arrive (0: no answer), for the rest-client metrics. */
  onAnswer?: (status: number) => void;
}

export async function readWatchStream<T extends KubeObject>(conn: Connection, w: WatchStreamRequest<T>): Promise<KubeResult<'ended'>> {
  let answered = false;
  try {
    const res = await request(conn.server + w.path + w.query, {
      method: 'GET',
      headers: { accept: 'application/json', 'user-agent': w.userAgent, ...(await conn.headers()) },
      signal: w.signal,
      dispatcher: conn.dispatcher,
      // The headers can stall as well as the body (a connection that dies before the server answers).
      bodyTimeout: w.idleTimeoutMs,
      ...(w.idleTimeoutMs > 0 && { headersTimeout: w.idleTimeoutMs }),
    });
    answered = true;
    w.onAnswer?.(res.statusCode);
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      const retry = res.headers['retry-after'];
      return { ok: false, error: errorFromResponse('GET', w.path, res.statusCode, text, Array.isArray(retry) ? retry[0] : retry) };
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line !== '') w.onEvent(JSON.parse(line) as WatchEvent<T>);
      }
    }
    return { ok: true, value: 'ended' };
  } catch (e) {
    if (w.signal.aborted) return { ok: true, value: 'ended' };
    if (!answered) w.onAnswer?.(0);
    return { ok: false, error: errorFromException('GET', w.path, e) };
  }
}
