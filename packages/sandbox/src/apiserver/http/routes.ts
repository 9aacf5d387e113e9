// Parsing Kubernetes API paths into (group, version, namespace, resource, name, subresource).
export interface ApiPath {
  group: string;
  version: string;
  namespace?: string;
  resource?: string;
  name?: string;
  subresource?: string;
  /** Path after `/proxy` for service and pod proxying. */
  rest?: string;
  /** The legacy `/watch/` path prefix. */
  legacyWatch: boolean;
}

export type RouteParse = { kind: 'api'; path: ApiPath } | { kind: 'group'; group: string } | { kind: 'none' };

export function parseApiPath(pathname: string): RouteParse {
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length < 2) return { kind: 'none' };
    group = '';
    version = parts[1] as string;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 2) return { kind: 'group', group: parts[1] as string };
    if (parts.length < 3) return { kind: 'none' };
    group = parts[1] as string;
    version = parts[2] as string;
    rest = parts.slice(3);
  } else return { kind: 'none' };
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  const path: ApiPath = { group, version, legacyWatch };
  if (rest.length === 0) return { kind: 'api', path };
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest[2] !== 'status' && rest[2] !== 'finalize') {
    path.namespace = rest[1];
    rest = rest.slice(2);
  }
  path.resource = rest[0];
  if (rest[1] !== undefined) path.name = rest[1];
  if (rest[2] !== undefined) path.subresource = rest[2];
  if (rest.length > 3) path.rest = '/' + rest.slice(3).map(encodeURIComponent).join('/') + (pathname.endsWith('/') ? '/' : '');
  else if (path.subresource === 'proxy') path.rest = pathname.endsWith('/') ? '/' : '';
  return { kind: 'api', path };
}
