// Talking to an API server the way kubectl does, from a kubeconfig: server URL, bearer token or client
// certificate, CA or insecure-skip-tls-verify. Used by the drivers that can afford direct HTTP (the sandbox):
// observing a dozen concurrent scenarios through `kubectl` processes would load 2 cores more than the
// scenarios themselves.
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { parse } from 'yaml';
import type { DashboardAnswer, KubeObject, Resource } from './types.ts';

export interface RestAccess {
  request(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; text: string }>;
  get(resource: Resource, namespace: string, name: string): Promise<KubeObject | undefined>;
  list(resource: Resource, namespace: string, labelSelector?: string): Promise<KubeObject[]>;
  dashboard(namespace: string, service: string, path: string): Promise<DashboardAnswer | undefined>;
  close(): Promise<void>;
}

const groups: Record<Resource, string> = {
  rayjobs: '/apis/ray.io/v1',
  rayclusters: '/apis/ray.io/v1',
  jobs: '/apis/batch/v1',
  pods: '/api/v1',
  services: '/api/v1',
  events: '/api/v1',
};

export const resourcePath = (resource: Resource, namespace: string, name?: string): string =>
  `${groups[resource]}/namespaces/${encodeURIComponent(namespace)}/${resource}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;

type Kubeconfig = {
  'current-context'?: string;
  contexts?: Array<{ name: string; context: { cluster: string; user: string } }>;
  clusters?: Array<{ name: string; cluster: { server: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string; 'insecure-skip-tls-verify'?: boolean } }>;
  users?: Array<{ name: string; user: { token?: string; 'client-certificate-data'?: string; 'client-key-data'?: string; 'client-certificate'?: string; 'client-key'?: string } }>;
};

const b64 = (data: string | undefined): string | undefined => (data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8'));
const file = (path: string | undefined): string | undefined => (path === undefined ? undefined : readFileSync(path, 'utf8'));

export function restAccessFromKubeconfig(kubeconfigPath: string, timeoutMs = 10_000): RestAccess {
  const config = parse(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
  const context = config.contexts?.find((c) => c.name === config['current-context'])?.context ?? config.contexts?.[0]?.context;
  const cluster = config.clusters?.find((c) => c.name === context?.cluster)?.cluster;
  const user = config.users?.find((u) => u.name === context?.user)?.user ?? {};
  if (!cluster) throw new Error(`kubeconfig ${kubeconfigPath}: no cluster for the current context`);
  const ca = b64(cluster['certificate-authority-data']) ?? file(cluster['certificate-authority']);
  const cert = b64(user['client-certificate-data']) ?? file(user['client-certificate']);
  const key = b64(user['client-key-data']) ?? file(user['client-key']);
  const dispatcher = new Agent({
    connect: {
      ...(ca !== undefined && { ca }),
      ...(cert !== undefined && key !== undefined && { cert, key }),
      rejectUnauthorized: cluster['insecure-skip-tls-verify'] !== true,
    },
  });
  const headers: Record<string, string> = user.token ? { authorization: `Bearer ${user.token}` } : {};

  const origin = new URL(cluster.server);
  const base = origin.pathname.replace(/\/$/, '');
  // The dispatcher's own request, not WHATWG fetch: a campaign makes thousands of these a minute, and fetch's
  // streams cost several times the CPU for the same exchange.
  const request: RestAccess['request'] = async (method, path, body, contentType = 'application/json') => {
    const response = await dispatcher.request({
      origin: origin.origin,
      path: `${base}${path}`,
      method: method as 'GET',
      headers: { ...headers, ...(body !== undefined && { 'content-type': contentType }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.statusCode, text: await response.body.text() };
  };
  return {
    request,
    async get(resource, namespace, name) {
      const { status, text } = await request('GET', resourcePath(resource, namespace, name));
      if (status === 404) return undefined;
      if (status !== 200) throw new Error(`GET ${resource} ${namespace}/${name}: ${status} ${text.slice(0, 200)}`);
      return JSON.parse(text) as KubeObject;
    },
    async list(resource, namespace, labelSelector) {
      const query = labelSelector === undefined ? '' : `?labelSelector=${encodeURIComponent(labelSelector)}`;
      const { status, text } = await request('GET', `${resourcePath(resource, namespace)}${query}`);
      if (status !== 200) throw new Error(`LIST ${resource} ${namespace}: ${status} ${text.slice(0, 200)}`);
      return (JSON.parse(text) as { items: KubeObject[] }).items;
    },
    async dashboard(namespace, service, path) {
      try {
        const { status, text } = await request('GET', `/api/v1/namespaces/${namespace}/services/${service}:dashboard/proxy${path}`);
        return { status, body: text };
      } catch {
        return undefined;
      }
    },
    close: () => dispatcher.close(),
  };
}
