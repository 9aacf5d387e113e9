// Turns what a user types as the dashboard address into a base URL. Accepted forms (as `ray job --address`):
// http://host:port, https://host:port, bare host:port (-> http), and a path prefix such as the Kubernetes
// API server's service proxy (https://apiserver/api/v1/namespaces/<ns>/services/<svc>:dashboard/proxy).

export type ParsedAddress =
  | { ok: true; baseUrl: string; secure: boolean }
  | { ok: false; error: string };

export function parseRayAddress(address: string): ParsedAddress {
  const trimmed = address.trim();
  if (trimmed === '') {
    return { ok: false, error: 'address is empty: pass the dashboard address, e.g. http://127.0.0.1:8265' };
  }
  const withScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, error: `address "${trimmed}" is not a valid URL: use http://host:port or https://host:port` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: `address scheme "${url.protocol}" is not supported: use http:// or https://` };
  }
  if (url.username || url.password) {
    return { ok: false, error: 'address must not carry credentials: use the token or headers options instead' };
  }
  if (url.search || url.hash) {
    return { ok: false, error: 'address must not carry a query or fragment: pass only scheme, host, port and path' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}`, secure: url.protocol === 'https:' };
}

/** ws:// or wss:// twin of an http(s) base URL. */
export function toWebSocketBase(baseUrl: string): string {
  return baseUrl.replace(/^http/, 'ws');
}
