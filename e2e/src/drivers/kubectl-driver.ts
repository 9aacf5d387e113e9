// Any cluster through a kubeconfig, with `kubectl` only — every write and fault is a command a person could
// type: `kubectl delete pod`, `kubectl delete pod --force --grace-period=0`, `kubectl exec <head> -- pkill -f
// ray-dashboard-JobHead`, `kubectl patch rayjob --type merge`, `kubectl apply`; reads (the RayJob, its cluster and
// pods, the dashboard through the API server's service proxy) go through one `kubectl proxy`.
import { execFile } from 'node:child_process';
import type { FaultName } from '../scenario/types.ts';
import { startKubectlProxy, type KubectlProxy } from './kubectl-proxy.ts';
import { resourcePath } from './rest-access.ts';
import type { Driver, DashboardAnswer, FaultTarget, KubeObject, Resource } from './types.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlDriverOptions {
  kubeconfigPath: string;
  /** The kubectl binary (default: `kubectl` on PATH). */
  kubectl?: string;
  /** Extra environment (e.g. KUBECACHEDIR) for every kubectl call. */
  env?: Record<string, string>;
  name?: 'kubectl' | 'kind';
  /** Container of Ray in head pods (KubeRay's samples: ray-head). */
  headContainer?: string;
}

export function kubectlRunner(options: KubectlDriverOptions) {
  return (args: string[], stdin?: string, timeoutMs = 30_000): Promise<KubectlResult> =>
    new Promise((resolve) => {
      const child = execFile(
        options.kubectl ?? 'kubectl',
        args,
        { env: { ...process.env, ...options.env, KUBECONFIG: options.kubeconfigPath }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const timedOut = error?.killed === true && error.code === null;
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr: timedOut ? `kubectl timed out after ${timeoutMs} ms\n${stderr}` : stderr });
        },
      );
      if (stdin !== undefined) child.stdin?.end(stdin);
    });
}

/** A failure to reach the API server, not an answer from it: a person would just run the command again. */
const transient = (r: KubectlResult): boolean =>
  r.code !== 0 && /timed out after|Unable to connect|connection refused|connection reset|i\/o timeout|TLS handshake timeout|context deadline exceeded|unexpected EOF/.test(r.stderr);

/** Runs a command that may be repeated safely (reads, apply, merge patch, delete) up to 3 times while it fails transiently. */
function withRetries(kubectl: ReturnType<typeof kubectlRunner>): ReturnType<typeof kubectlRunner> {
  return async (args, stdin, timeoutMs) => {
    let result = await kubectl(args, stdin, timeoutMs);
    for (let attempt = 1; attempt < 3 && transient(result); attempt += 1) result = await kubectl(args, stdin, timeoutMs);
    return result;
  };
}

const kinds: Record<Resource, string> = { rayjobs: 'rayjobs.ray.io', rayclusters: 'rayclusters.ray.io', jobs: 'jobs.batch', pods: 'pods', services: 'services', events: 'events' };

type Kubectl = ReturnType<typeof kubectlRunner>;

async function stdoutOrThrow(command: Kubectl, args: string[], stdin?: string): Promise<string> {
  const r = await command(args, stdin);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: exit ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * Every fault as the command a person would type. `once` runs a command a single time: repeating a `pkill` or a
 * force delete after a timeout would be a second fault; `kubectl` may repeat (a merge patch is idempotent).
 */
function kubectlFaults(once: Kubectl, kubectl: Kubectl, headContainer: string): Record<FaultName, (t: FaultTarget) => Promise<unknown>> {
  const must = (args: string[]): Promise<string> => stdoutOrThrow(kubectl, args);
  const mustOnce = (args: string[]): Promise<string> => stdoutOrThrow(once, args);
  const needHead = (t: FaultTarget): string => {
    if (!t.headPod) throw new Error(`no head pod for ${t.namespace}/${t.rayJob}`);
    return t.headPod;
  };
  return {
    deleteSubmitterPod: (t) => {
      if (!t.submitterPod) throw new Error(`no submitter pod for ${t.namespace}/${t.rayJob}`);
      return mustOnce(['delete', 'pod', '-n', t.namespace, t.submitterPod, '--wait=false']);
    },
    deleteSubmitterJob: (t) => mustOnce(['delete', 'job', '-n', t.namespace, t.rayJob, '--wait=false']),
    // The JobHead is a dashboard subprocess titled `ray-dashboard-JobHead-<n>`; the agent `ray::DashboardAgent`.
    killJobHead: (t) => mustOnce(['exec', '-n', t.namespace, needHead(t), '-c', headContainer, '--', 'pkill', '-f', 'ray-dashboard-JobHead']),
    killDashboardAgent: (t) => mustOnce(['exec', '-n', t.namespace, needHead(t), '-c', headContainer, '--', 'pkill', '-9', '-f', 'ray::DashboardAgent']),
    forceDeleteHeadPod: (t) => mustOnce(['delete', 'pod', '-n', t.namespace, needHead(t), '--force', '--grace-period=0']),
    deleteHeadPod: (t) => mustOnce(['delete', 'pod', '-n', t.namespace, needHead(t), '--wait=false']),
    stopOperator: () => Promise.reject(new Error('the kubectl driver does not own the operator (scenarios that need it declare needs: operatorRestart)')),
    startOperator: () => Promise.reject(new Error('the kubectl driver does not own the operator')),
    suspend: (t) => must(['patch', 'rayjob', '-n', t.namespace, t.rayJob, '--type', 'merge', '-p', '{"spec":{"suspend":true}}']),
    resume: (t) => must(['patch', 'rayjob', '-n', t.namespace, t.rayJob, '--type', 'merge', '-p', '{"spec":{"suspend":false}}']),
  };
}

/** Reads through one `kubectl proxy`, started on the first read (see kubectl-proxy.ts). */
function proxyReads(options: KubectlDriverOptions) {
  let proxy: Promise<KubectlProxy> | undefined;
  return {
    read(path: string): Promise<{ status: number; text: string }> {
      proxy ??= startKubectlProxy({ kubectl: options.kubectl ?? 'kubectl', env: { ...process.env, ...options.env, KUBECONFIG: options.kubeconfigPath } });
      return proxy.then((p) => p.get(path));
    },
    close: async () => { await (await proxy)?.close(); },
  };
}

export function createKubectlDriver(options: KubectlDriverOptions): Driver {
  const once = kubectlRunner(options);
  const kubectl = withRetries(once);
  const must = (args: string[], stdin?: string): Promise<string> => stdoutOrThrow(kubectl, args, stdin);
  const { read, close } = proxyReads(options);
  const faults = kubectlFaults(once, kubectl, options.headContainer ?? 'ray-head');
  return {
    name: options.name ?? 'kubectl',
    kubeconfigPath: options.kubeconfigPath,
    abilities: new Set(),
    async createNamespace(namespace) {
      const r = await kubectl(['create', 'namespace', namespace]);
      if (r.code !== 0 && !r.stderr.includes('AlreadyExists')) throw new Error(`kubectl create namespace ${namespace}: ${r.stderr.trim()}`);
    },
    async deleteNamespace(namespace) {
      await kubectl(['delete', 'namespace', namespace, '--wait=false', '--ignore-not-found']);
    },
    async apply(object) {
      await must(['apply', '-f', '-'], JSON.stringify(object));
    },
    async get(resource: Resource, namespace: string, name: string) {
      const r = await read(resourcePath(resource, namespace, name));
      if (r.status === 404) return undefined;
      if (r.status !== 200) throw new Error(`get ${resource} ${namespace}/${name} through kubectl proxy: ${r.status} ${r.text.slice(0, 300)}`);
      return JSON.parse(r.text) as KubeObject;
    },
    async list(resource: Resource, namespace: string, labelSelector?: string) {
      const r = await read(`${resourcePath(resource, namespace)}${labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : ''}`);
      if (r.status !== 200) throw new Error(`list ${resource} in ${namespace} through kubectl proxy: ${r.status} ${r.text.slice(0, 300)}`);
      return (JSON.parse(r.text) as { items: KubeObject[] }).items;
    },
    async remove(resource, namespace, name) {
      await must(['delete', kinds[resource], '-n', namespace, name, '--wait=false', '--ignore-not-found']);
    },
    async mergePatch(resource, namespace, name, patch) {
      await must(['patch', kinds[resource], '-n', namespace, name, '--type', 'merge', '-p', JSON.stringify(patch)]);
    },
    async dashboard(namespace, service, path): Promise<DashboardAnswer | undefined> {
      // What `kubectl get --raw /api/v1/namespaces/<ns>/services/<svc>:dashboard/proxy<path>` asks for.
      const r = await read(`/api/v1/namespaces/${namespace}/services/${service}:dashboard/proxy${path}`).catch((error: unknown) => ({ status: 503, text: String(error) }));
      return { status: r.status, body: r.text };
    },
    async dashboardPost(namespace, service, path, body): Promise<DashboardAnswer> {
      // `kubectl create --raw` POSTs the file's bytes; it exits non-zero on a non-2xx answer. Not repeated: a
      // submission is done once.
      const r = await once(['create', '--raw', `/api/v1/namespaces/${namespace}/services/${service}:dashboard/proxy${path}`, '-f', '-'], JSON.stringify(body));
      return r.code === 0 ? { status: 200, body: r.stdout } : { status: 500, body: r.stderr };
    },
    fault: async (fault, target) => { await faults[fault](target); },
    close,
  };
}
