// startApiServer: an in-memory Kubernetes API server on 127.0.0.1 speaking the real REST + watch protocol,
// with the control-plane loops that belong to it (garbage collector, namespace cleanup, CRD establishing).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGarbageCollector } from '../gc/collector.ts';
import { startNamespaceController } from '../gc/namespaces.ts';
import { createOwnerIndex } from '../store/owner-index.ts';
import { createStore, type Store } from '../store/store.ts';
import { createAdmission } from './admission/plugins/chain.ts';
import { startQuotaStatusController } from './admission/plugins/quota-status.ts';
import type { AuditSink } from './audit/audit-event.ts';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './auth/bootstrap-rbac.ts';
import { createTokenIssuer, type MintRequest } from './auth/service-account-tokens.ts';
import { registerBuiltins } from './builtins/builtins.ts';
import type { ApiContext } from './storage/context.ts';
import { installCrdDocuments, startCrdController } from './crds/crd-controller.ts';
import { createDispatcher } from './handlers/dispatch.ts';
import { startHttpsListener } from './serving/https-listener.ts';
import { podUpgradeHandler, type KubeletClientTls } from './proxy/kubelet-proxy.ts';
import { writeKubeconfig } from './serving/kubeconfig.ts';
import { publishKubernetesService } from './serving/kubernetes-service.ts';
import { createObject } from './storage/objects.ts';
import { createRegistry, type Registry } from './registry/resource-types.ts';
import type { StatusBody } from './errors/status.ts';
import type { WatchRegistry } from './handlers/watch.ts';

export interface ApiServerOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** State folder (kubeconfig, pod logs). Default: a fresh temp folder, removed on stop. */
  dir?: string;
  /** Clock for timestamps (tests inject one). */
  now?: () => number;
  /** How many changes a watch can resume across before getting 410 Gone. */
  historySize?: number;
  /** Changes older than this are compacted: watches and paginated lists from before get 410 Gone (default 5 min). */
  historyWindowMs?: number;
  bookmarkIntervalMs?: number;
  /** Graceful pod deletion (set when a kubelet runs; without one, pods are deleted at once). */
  podGracefulDeletion?: boolean;
  /** CRD YAML texts or file paths to install before returning. */
  crds?: string[];
  /**
   * Also serve HTTPS (self-signed CA in ca.crt, kubeconfig-https next to kubeconfig); the `kubernetes` Service
   * then points at it. Needed for bearer tokens: kubectl and client-go send them only over TLS.
   */
  https?: boolean;
  /** TLS toward kubelets (pods/log, pods/exec): client certificate and the CA of their serving certificates. */
  kubeletClient?: KubeletClientTls;
  /** With `https`: client certificates this CA signed authenticate as CN (user) and O (groups), as kube-apiserver's --client-ca-file. */
  clientCA?: string;
  /** kube-apiserver's audit log at level Request: one event per request, when it completes. */
  audit?: AuditSink;
}

export interface ApiServer {
  url: string;
  host: string;
  port: number;
  kubeconfigPath: string;
  /** With `https`: the TLS URL, the CA that signed its certificate, and an admin kubeconfig using both. */
  https?: { url: string; port: number; caPath: string; kubeconfigPath: string };
  dir: string;
  /** Introspection for tests and the other sandbox components (kubelet, job controller use HTTP). */
  context: ApiContext;
  store: Store;
  registry: Registry;
  /** Open watch streams right now. */
  watchCount(): number;
  /** End every open watch with an ERROR event (410 Expired unless given), as a compacting server would. */
  expireWatches(status?: StatusBody): void;
  /**
   * A ServiceAccount token, as the TokenRequest API mints it (for the kubelet's projected token volume: pass the
   * pod to bind the token to it). Authenticates as system:serviceaccount:<ns>:<name>.
   */
  mintServiceAccountToken(request: Omit<MintRequest, 'uid'>): { token: string; expirationTimestamp: string };
  /** Forget watch history so any resume needs a relist (410 Gone). */
  compactHistory(): void;
  setPodGracefulDeletion(enabled: boolean): void;
  stop(): Promise<void>;
}

const bootstrapNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function createContext(options: ApiServerOptions, dir: string): ApiContext {
  const store = createStore({
    ...(options.historySize !== undefined && { historySize: options.historySize }),
    ...(options.historyWindowMs !== undefined && { historyWindowMs: options.historyWindowMs }),
    ...(options.now !== undefined && { now: options.now }),
  });
  const registry = createRegistry();
  registerBuiltins(registry);
  const ctx: ApiContext = {
    store,
    registry,
    owners: createOwnerIndex(store),
    now: options.now ?? Date.now,
    podGracefulDeletion: options.podGracefulDeletion ?? false,
    dir,
    tokens: createTokenIssuer(),
    ...(options.kubeletClient !== undefined && { kubeletClient: options.kubeletClient }),
    ...(options.audit !== undefined && { audit: options.audit }),
  };
  ctx.admit = createAdmission(ctx);
  return ctx;
}

/** The control-plane loops that live in kube-apiserver (CRD establishing) and kube-controller-manager; returns their stop. */
function startControlLoops(ctx: ApiContext): () => void {
  const stopCrds = startCrdController(ctx);
  const quotaStatus = startQuotaStatusController(ctx);
  const gc = startGarbageCollector(ctx);
  const nsController = startNamespaceController(ctx);
  return () => {
    gc.stop();
    nsController.stop();
    quotaStatus.stop();
    stopCrds();
    ctx.owners.stop();
  };
}

/** What a fresh cluster has: its namespaces, the bootstrap RBAC, and the asked CRDs. */
async function bootstrap(ctx: ApiContext, crds: string[] | undefined): Promise<void> {
  const { registry } = ctx;
  for (const ns of bootstrapNamespaces) createObject(ctx, registry.lookup('', 'v1', 'namespaces')!, undefined, { metadata: { name: ns } });
  const rbacType = (plural: string) => registry.lookup('rbac.authorization.k8s.io', 'v1', plural)!;
  for (const role of bootstrapClusterRoles) createObject(ctx, rbacType('clusterroles'), undefined, role);
  for (const binding of bootstrapClusterRoleBindings) createObject(ctx, rbacType('clusterrolebindings'), undefined, binding);
  if (crds && crds.length > 0) await installCrdDocuments(ctx, crds);
}

/** The plain-HTTP listener; `close` ends it and every connection still open. */
async function listenHttp(handler: RequestListener, upgrade: ReturnType<typeof podUpgradeHandler>, host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  server.on('upgrade', upgrade);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const host = options.host ?? '127.0.0.1';
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'rayjob-sandbox-')));
  const ctx = createContext(options, dir);
  const { store, registry } = ctx;
  const stopControlLoops = startControlLoops(ctx);
  await bootstrap(ctx, options.crds);

  const watches: WatchRegistry = { active: new Set(), bookmarkIntervalMs: options.bookmarkIntervalMs ?? 1000, maxBufferedBytes: 64 * 1024 * 1024 };
  let address = '';
  const handler = createDispatcher(ctx, watches, () => address);
  const upgrade = podUpgradeHandler(ctx);
  const http = await listenHttp(handler, upgrade, host, options.port ?? 0);
  const { port } = http;
  address = `${host}:${port}`;
  const url = `http://${address}`;
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, url);
  const tls = options.https ? await startHttpsListener(handler, host, dir, upgrade, options.clientCA) : undefined;
  const https = tls && { url: tls.url, port: tls.port, caPath: tls.caPath, kubeconfigPath: join(dir, 'kubeconfig-https') };
  if (https) await writeKubeconfig(https.kubeconfigPath, https.url, https.caPath);
  publishKubernetesService(ctx, host, tls?.port ?? port);

  let stopped = false;
  return {
    url,
    host,
    port,
    kubeconfigPath,
    ...(https && { https }),
    dir,
    context: ctx,
    store,
    registry,
    watchCount: () => watches.active.size,
    expireWatches: (status) => {
      for (const w of [...watches.active]) w.expire(status);
    },
    compactHistory: () => store.compact(),
    mintServiceAccountToken: (request) => {
      const sa = store.get('/serviceaccounts', request.namespace, request.name);
      if (!sa) throw new Error(`serviceaccount ${request.namespace}/${request.name} not found`);
      return ctx.tokens.mint({ ...request, uid: sa.metadata.uid ?? '' }, ctx.now());
    },
    setPodGracefulDeletion: (enabled) => {
      ctx.podGracefulDeletion = enabled;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const w of [...watches.active]) w.close();
      stopControlLoops();
      await http.close();
      await tls?.close();
      if (ownsDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
