// Where the API server is and how to authenticate, turned into an undici dispatcher plus per-request headers.
// Kubeconfig files and exec/auth-provider plugins are resolved through @kubernetes/client-node's KubeConfig, loaded
// only when such a source is used: it takes seconds to import on a loaded machine and ~25 MB of heap (its sources and
// generated API). Explicit server options and the in-cluster service account (an operator pod's usual case) need
// no kubeconfig machinery.
// Tokens go into headers only, never into messages.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, type Dispatcher } from 'undici';

/** Explicit connection settings (the sandbox's node side and tests use these). PEM strings, not base64. */
export interface ServerOptions {
  server: string;
  token?: string;
  /** Re-read on every request, as a projected service-account token rotates. */
  tokenFile?: string;
  ca?: string;
  caFile?: string;
  cert?: string;
  key?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
}

export type ConnectionSource =
  | { kubeConfig: KubeConfig }
  | { kubeconfigPath: string; context?: string }
  | { inCluster: true }
  /** KUBECONFIG / ~/.kube/config, else in-cluster, as client-go's defaults. */
  | { fromDefault: true; context?: string }
  | ServerOptions;

/** The TLS side of a connection: whom it trusts (ca) and what it presents (a client certificate), PEM. */
export interface ConnectionTls {
  ca?: string;
  cert?: string;
  key?: string;
  /** false: the server's certificate is not verified (insecure-skip-tls-verify). */
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface Connection {
  /** Base URL without a trailing slash. */
  server: string;
  dispatcher: Dispatcher;
  tls: ConnectionTls;
  /** Authorization (and impersonation) headers for the next request. */
  headers(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const b64 = (pem: string | undefined): string | undefined => (pem === undefined ? undefined : Buffer.from(pem).toString('base64'));

export async function kubeConfigFrom(source: ConnectionSource): Promise<KubeConfig> {
  if ('kubeConfig' in source) return source.kubeConfig;
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if ('kubeconfigPath' in source) {
    kc.loadFromFile(source.kubeconfigPath);
    if (source.context !== undefined) kc.setCurrentContext(source.context);
  } else if ('inCluster' in source) {
    kc.loadFromCluster();
  } else if ('fromDefault' in source) {
    kc.loadFromDefault();
    if (source.context !== undefined) kc.setCurrentContext(source.context);
  } else {
    kc.loadFromClusterAndUser(
      {
        name: 'cluster',
        server: source.server,
        skipTLSVerify: source.insecureSkipTlsVerify ?? false,
        ...(source.ca !== undefined && { caData: b64(source.ca) }),
        ...(source.caFile !== undefined && { caFile: source.caFile }),
        ...(source.tlsServerName !== undefined && { tlsServerName: source.tlsServerName }),
      },
      {
        name: 'user',
        ...(source.token !== undefined && { token: source.token }),
        ...(source.cert !== undefined && { certData: b64(source.cert) }),
        ...(source.key !== undefined && { keyData: b64(source.key) }),
      },
    );
  }
  return kc;
}

const isServerOptions = (source: ConnectionSource): source is ServerOptions => 'server' in source;

/**
 * Closes gracefully, but not forever: requests still in flight may finish for up to `graceMs`, then the agent is
 * destroyed. undici's own close() waits for every request, and a watch or a stream nobody aborted never ends by
 * itself, so a process stopping on SIGTERM would hang until SIGKILL. (close() then destroy() does not work: the
 * agent forgets its pools on close, so the destroy reaches nothing.)
 */
export async function closeWithin(agent: Agent, graceMs = 2000): Promise<void> {
  const busy = (): boolean => Object.values(agent.stats).some((s) => s.running + s.pending > 0);
  const deadline = Date.now() + graceMs;
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  await agent.destroy();
}

/** The undici agent every connection uses: keep-alive, and no body timeout (watches stay open for minutes). */
const agentWith = (connect: Agent.Options['connect']): Agent => new Agent({ connect, bodyTimeout: 0, keepAliveTimeout: 30_000 });

/**
 * A token file as the kubelet keeps a projected service-account token: replaced (an atomic symlink swap) well
 * before it expires. The file is read again whenever it changed (a stat per request, no read), so a rotated token
 * is used from the next request on; client-go re-reads at most once a minute.
 */
export function tokenFileReader(path: string): () => string {
  let seen = '';
  let token = '';
  return () => {
    const st = statSync(path);
    const version = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (version !== seen) {
      token = readFileSync(path, 'utf8').trim();
      seen = version;
    }
    return token;
  };
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Explicit settings: TLS material straight into the agent, the token (or token file) into the headers. */
function directConnection(source: ServerOptions): Connection {
  const ca = source.ca ?? (source.caFile !== undefined ? readFileSync(source.caFile, 'utf8') : undefined);
  const tls: ConnectionTls = {
    ...(ca !== undefined && { ca }),
    ...(source.cert !== undefined && { cert: source.cert }),
    ...(source.key !== undefined && { key: source.key }),
    ...(source.insecureSkipTlsVerify === true && { rejectUnauthorized: false }),
    ...(source.tlsServerName !== undefined && { servername: source.tlsServerName }),
  };
  const dispatcher = agentWith(tls);
  const fixed = source.token !== undefined ? bearer(source.token) : {};
  const fromFile = source.tokenFile !== undefined ? tokenFileReader(source.tokenFile) : undefined;
  return {
    server: source.server.replace(/\/+$/, ''),
    dispatcher,
    tls,
    headers: async () => (fromFile !== undefined ? bearer(fromFile()) : fixed),
    close: () => closeWithin(dispatcher),
  };
}

/** Where a pod's service account is mounted (client-go's and client-node's in-cluster paths). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The in-cluster connection as client-go's InClusterConfig and client-node's loadFromCluster make it (the API
 * server from KUBERNETES_SERVICE_HOST/PORT, the service account's CA, its token file re-read as it rotates), when
 * `source` resolves to it: `{ inCluster }`, or `{ fromDefault }` without a context where neither KUBECONFIG nor
 * ~/.kube/config exists and the token is mounted (loadFromDefault's order). undefined: a kubeconfig is involved.
 */
export function inClusterServer(source: ConnectionSource, env: NodeJS.ProcessEnv = process.env, dir = SERVICE_ACCOUNT_DIR): ServerOptions | undefined {
  if ('fromDefault' in source) {
    if (source.context !== undefined || (env['KUBECONFIG'] ?? '') !== '') return undefined;
    if (env['HOME'] && existsSync(join(env['HOME'], '.kube', 'config'))) return undefined;
    if (!existsSync(join(dir, 'token'))) return undefined;
  } else if (!('inCluster' in source)) {
    return undefined;
  }
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (!host || !port) throw new Error('in-cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (this process is not in a pod); pass --kubeconfig');
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  return { server: `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`, caFile: join(dir, 'ca.crt'), tokenFile: join(dir, 'token') };
}

const pem = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

export async function openConnection(source: ConnectionSource): Promise<Connection> {
  if (isServerOptions(source)) return directConnection(source);
  const inCluster = inClusterServer(source);
  if (inCluster !== undefined) return directConnection(inCluster);
  const loaded = await kubeConfigFrom(source);
  const cluster = loaded.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig: no current cluster; set current-context or pass {server}');
  const user = loaded.getCurrentUser();
  // client-node refuses plain http unless TLS verification is switched off; with no TLS there is nothing
  // to verify (kubectl accepts such a server), so only the auth part of its options is used then.
  const kc = cluster.server.startsWith('http:') && !cluster.skipTLSVerify ? await plainHttp(loaded) : loaded;
  const first: RequestOptions & { headers: Record<string, string> } = { headers: {} };
  await kc.applyToHTTPSOptions(first);
  const ca = pem(first.ca);
  const cert = pem(first.cert);
  const key = pem(first.key);
  const tls: ConnectionTls = {
    ...(ca !== undefined && { ca }),
    ...(cert !== undefined && { cert }),
    ...(key !== undefined && { key }),
    ...(first.rejectUnauthorized !== undefined && { rejectUnauthorized: first.rejectUnauthorized }),
    ...(first.servername !== undefined && { servername: first.servername }),
  };
  const dispatcher = agentWith(tls);
  const basic: Record<string, string> = first.auth === undefined || first.auth === null ? {} : { authorization: `Basic ${Buffer.from(first.auth).toString('base64')}` };
  const staticHeaders = { ...lowerKeys(first.headers), ...basic };
  // In a pod (client-node's in-cluster user): the projected token the kubelet rotates, read again when it changed.
  const tokenFile = user?.authProvider?.name === 'tokenFile' ? (user.authProvider.config as { tokenFile?: string } | undefined)?.tokenFile : undefined;
  const fromFile = tokenFile !== undefined ? tokenFileReader(tokenFile) : undefined;
  // Exec plugins and other auth providers yield tokens that expire, so those ask again per request
  // (client-node caches them until expiry); static credentials are computed once.
  const dynamic = user?.exec !== undefined || (user?.authProvider !== undefined && fromFile === undefined);
  return {
    server: cluster.server.replace(/\/+$/, ''),
    dispatcher,
    tls,
    headers: async () => {
      if (fromFile) return { ...staticHeaders, ...bearer(fromFile()) };
      if (!dynamic) return staticHeaders;
      const fresh: RequestOptions & { headers: Record<string, string> } = { headers: {} };
      await kc.applyToHTTPSOptions(fresh);
      return { ...lowerKeys(fresh.headers), ...basic };
    },
    close: () => closeWithin(dispatcher),
  };
}

async function plainHttp(kc: KubeConfig): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const copy = new KubeConfig();
  copy.loadFromClusterAndUser({ ...kc.getCurrentCluster()!, skipTLSVerify: true }, kc.getCurrentUser() ?? { name: 'user' });
  return copy;
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
}
