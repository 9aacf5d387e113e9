import type { LookupFunction } from 'node:net';
import { authSecretName, clusterHeadServiceName, tokenAuthEnabled, type RayCluster } from '@rayjob/core';
import { createConnectionPool, createRayClient, type ConnectionPoolOptions, type RayClient } from '@rayjob/ray-client';
import { operatorUserAgent } from '../../user-agent.ts';

/** How the operator reaches a cluster's dashboard (KubeRay §3.7). */
export interface DashboardRoute {
  /** true: through the API server's service proxy (`--use-kubernetes-proxy`). */
  useKubernetesProxy: boolean;
  /**
   * The API server for the proxy route: its base URL, the TLS material the operator's API client uses (the cluster
   * CA, a client certificate) and its authentication headers, asked each time a client is made (a token the kubelet
   * rotated is picked up; the client built with the old one is closed).
   */
  apiServer?: { url: string; tls?: ApiServerTls; authHeaders: () => Promise<Record<string, string>> } | undefined;
  /** Name resolution for the direct route (a sandbox's cluster DNS when the operator runs outside it). */
  lookup?: LookupFunction | undefined;
  /**
   * Aborted once this replica's work is fenced off (the lease was lost): no dashboard call starts after that, and
   * one in flight is aborted (its connection dropped: a submission or stop held up on the way never reaches Ray).
   */
  fence?: AbortSignal | undefined;
}

export interface ApiServerTls {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized?: boolean;
  servername?: string;
}

/** Reads the `auth_token` key of a Secret; undefined when the Secret or key is missing. Never logged. */
export type SecretReader = (namespace: string, name: string, key: string) => Promise<string | undefined>;

export type ClientResult = { ok: true; client: RayClient } | { ok: false; message: string };

/**
 * One Ray client per (cluster, address, token): a rotated token or a new attempt's cluster gets a fresh client.
 * Clients of clusters not used for `idleMs` are closed. All of them share one connection pool: the route fixes the
 * TLS settings and name resolution for every cluster, and each request carries its own credentials, so a
 * connection to a dashboard (or to the API server, for its service proxy) serves any cluster's client. The pool is
 * bounded per origin, closes idle connections, and forgets an origin once its last connection closed.
 */
export interface DashboardClients {
  clientFor(cluster: RayCluster, dashboardURL: string): Promise<ClientResult>;
  close(): Promise<void>;
}

const DIRECT_TIMEOUT_MS = 2_000;
/** The idle clients are looked for every idleMs / SWEEP_FRACTION. */
const SWEEP_FRACTION = 10;
const PROXY_TIMEOUT_MS = 10_000;

/** Told the outcome of every dashboard request the RayJob controller makes (Ray client result kinds). */
export type DashboardRequestObserver = (operation: 'get_job' | 'submit_job' | 'stop_job', outcome: string) => void;

/** The clients by cluster and the pool they share; the functions below act on it. */
interface DashboardState {
  route: DashboardRoute;
  readSecret: SecretReader;
  idleMs: number;
  observe: DashboardRequestObserver | undefined;
  /** Per (cluster, address): the client and the credentials it was made with. */
  clients: Map<string, { client: RayClient; usedAt: number; credentials: string }>;
  pool: ReturnType<typeof createConnectionPool>;
  /** When the idle clients were last looked for (sweep). */
  sweptAt: number;
}

export function createDashboardClients(
  route: DashboardRoute,
  readSecret: SecretReader,
  idleMs = 10 * 60_000,
  observe?: DashboardRequestObserver,
  poolOptions: Pick<ConnectionPoolOptions, 'connectionsPerOrigin' | 'idleMs'> = {},
): DashboardClients {
  const proxyTls = route.useKubernetesProxy ? route.apiServer?.tls : undefined;
  const pool = createConnectionPool({
    ...poolOptions,
    ...(proxyTls && { tls: rayTls(proxyTls) }),
    ...(!(route.useKubernetesProxy && route.apiServer) && route.lookup !== undefined && { lookup: route.lookup }),
  });
  const d: DashboardState = { route, readSecret, idleMs, observe, clients: new Map(), pool, sweptAt: Date.now() };
  return {
    clientFor: (cluster, dashboardURL) => clientFor(d, cluster, dashboardURL),
    async close() {
      const all = [...d.clients.values()];
      d.clients.clear();
      await Promise.all(all.map((e) => e.client.close()));
      await pool.close();
    },
  };
}

/** The API server's TLS settings as the Ray client takes them. */
function rayTls(tls: ApiServerTls) {
  return {
    verify: tls.rejectUnauthorized !== false,
    ...(tls.ca !== undefined && { ca: tls.ca }),
    ...(tls.cert !== undefined && { cert: tls.cert }),
    ...(tls.key !== undefined && { key: tls.key }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
  };
}

function dashboardAddress(route: DashboardRoute, cluster: RayCluster, dashboardURL: string): string {
  if (!route.useKubernetesProxy || !route.apiServer) return /^https?:\/\//.test(dashboardURL) ? dashboardURL : `http://${dashboardURL}`;
  const ns = cluster.metadata.namespace ?? 'default';
  const svc = cluster.status?.head?.serviceName || clusterHeadServiceName(cluster);
  return `${route.apiServer.url.replace(/\/$/, '')}/api/v1/namespaces/${ns}/services/${svc}:dashboard/proxy`;
}

async function clusterToken(readSecret: SecretReader, cluster: RayCluster): Promise<{ ok: true; token?: string } | { ok: false; message: string }> {
  if (!tokenAuthEnabled(cluster.spec)) return { ok: true };
  const ns = cluster.metadata.namespace ?? 'default';
  const name = authSecretName(cluster.metadata.name ?? '', cluster.spec);
  const value = await readSecret(ns, name, 'auth_token');
  if (!value) return { ok: false, message: `the Ray auth token Secret ${ns}/${name} (key auth_token) is missing` };
  return { ok: true, token: value.trim() };
}

/**
 * Closes the clients not used for idleMs, looking at most once per SWEEP_FRACTION of idleMs (a client lives at most
 * idleMs * (1 + 1/SWEEP_FRACTION) unused): a look per call walked every client, so a resync's first pass over
 * 10,000 RayJobs made ~50 million steps (~1 s of CPU).
 */
function sweep(d: DashboardState, now: number): void {
  if (now - d.sweptAt < d.idleMs / SWEEP_FRACTION) return;
  d.sweptAt = now;
  for (const [key, entry] of d.clients) {
    if (now - entry.usedAt > d.idleMs) {
      d.clients.delete(key);
      void entry.client.close();
    }
  }
}

async function clientFor(d: DashboardState, cluster: RayCluster, dashboardURL: string): Promise<ClientResult> {
  const { route } = d;
  // A replica that lost its lease must not submit, stop or delete Ray jobs any more than write objects.
  if (route.fence?.aborted) return { ok: false, message: 'this operator replica no longer holds the leader lease' };
  const auth = await clusterToken(d.readSecret, cluster);
  if (!auth.ok) return auth;
  const base = dashboardAddress(route, cluster, dashboardURL);
  const apiServer = route.useKubernetesProxy ? route.apiServer : undefined;
  const { authorization, ...apiHeaders } = apiServer ? await apiServer.authHeaders() : {};
  // A rotated Ray token or API server token makes a new client (keys and credentials are never logged).
  const key = `${cluster.metadata.uid ?? ''}|${base}`;
  const credentials = JSON.stringify([auth.token ?? '', authorization ?? '', apiHeaders]);
  const now = Date.now();
  sweep(d, now);
  const existing = d.clients.get(key);
  if (existing?.credentials === credentials) {
    existing.usedAt = now;
    return { ok: true, client: existing.client };
  }
  // Closed once a call still using it has had its time (the shared pool stays); a log tail keeps its own socket.
  if (existing) setTimeout(() => void existing.client.close(), PROXY_TIMEOUT_MS).unref();
  try {
    const tls = apiServer?.tls;
    const client = createRayClient({
      address: base,
      // Through the service proxy these are API server requests: the audit log attributes them to the operator.
      headers: { ...apiHeaders, 'user-agent': operatorUserAgent },
      ...(auth.token !== undefined && { token: auth.token }),
      ...(authorization !== undefined && { apiServerAuthorization: authorization }),
      ...(tls && { tls: rayTls(tls) }),
      ...(!apiServer && route.lookup !== undefined && { lookup: route.lookup }),
      timeoutMs: apiServer ? PROXY_TIMEOUT_MS : DIRECT_TIMEOUT_MS,
      ...(route.fence && { signal: route.fence }),
      pool: d.pool,
    });
    const counted = d.observe ? countedClient(client, d.observe) : client;
    d.clients.set(key, { client: counted, usedAt: now, credentials });
    return { ok: true, client: counted };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

/** The same client, telling `observe` how each job request ended (ok, not-found, unavailable, rejected, ...). */
function countedClient(client: RayClient, observe: DashboardRequestObserver): RayClient {
  const told = <T extends { kind: string }>(operation: Parameters<DashboardRequestObserver>[0], answer: Promise<T>): Promise<T> =>
    answer.then((r) => {
      observe(operation, r.kind);
      return r;
    });
  return {
    ...client,
    baseUrl: client.baseUrl,
    getJob: (id, options) => told('get_job', client.getJob(id, options)),
    submit: (request, options) => told('submit_job', client.submit(request, options)),
    stopJob: (id, options) => told('stop_job', client.stopJob(id, options)),
  };
}
