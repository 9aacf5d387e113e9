// Ray's dashboard treats a request carrying any of these headers, or a User-Agent starting with "Mozilla", as
// browser traffic and refuses it writes (405; ray-jobs-api.md §2). One definition for the client's option check
// (refuse such headers up front) and the emulator's gate (refuse such requests as Ray does).
export const rayBrowserHeaderNames: readonly string[] = [
  'origin',
  'referer',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'sec-fetch-site',
  'sec-fetch-user',
  'access-control-request-method',
  'access-control-request-headers',
];

export function isRayBrowserHeaderName(name: string): boolean {
  return rayBrowserHeaderNames.includes(name.toLowerCase());
}

export function isRayBrowserUserAgent(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('Mozilla');
}

/** For lower-cased header records such as node's IncomingHttpHeaders. */
export function isRayBrowserRequest(headers: Readonly<Record<string, unknown>>): boolean {
  return isRayBrowserUserAgent(headers['user-agent']) || rayBrowserHeaderNames.some((h) => headers[h] !== undefined);
}
