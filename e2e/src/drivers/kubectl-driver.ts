// Any cluster through a kubeconfig, with `kubectl` only — every read, write and fault is a command a person
// could type: `kubectl delete pod`, `kubectl delete pod --force --grace-period=0`, `kubectl exec <head> --
// pkill -f ray-dashboard-JobHead`, `kubectl patch rayjob --type merge`, `kubectl get --raw <service proxy>`.
import { execFile } from 'node:child_process';
import type { FaultName } from '../scenario/types.ts';
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
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
      if (stdin !== undefined) child.stdin?.end(stdin);
    });
}

const kinds: Record<Resource, string> = { rayjobs: 'rayjobs.ray.io', rayclusters: 'rayclusters.ray.io', jobs: 'jobs.batch', pods: 'pods', services: 'services', events: 'events' };

export function createKubectlDriver(options: KubectlDriverOptions): Driver {
  const kubectl = kubectlRunner(options);
  const must = async (args: string[], stdin?: string): Promise<string> => {
    const r = await kubectl(args, stdin);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: exit ${r.code}: ${r.stderr.trim()}`);
    return r.stdout;
  };
  const headContainer = options.headContainer ?? 'ray-head';
  const needHead = (t: FaultTarget): string => {
    if (!t.headPod) throw new Error(`no head pod for ${t.namespace}/${t.rayJob}`);
    return t.headPod;
  };
  const faults: Record<FaultName, (t: FaultTarget) => Promise<unknown>> = {
    deleteSubmitterPod: (t) => {
      if (!t.submitterPod) throw new Error(`no submitter pod for ${t.namespace}/${t.rayJob}`);
      return must(['delete', 'pod', '-n', t.namespace, t.submitterPod, '--wait=false']);
    },
    deleteSubmitterJob: (t) => must(['delete', 'job', '-n', t.namespace, t.rayJob, '--wait=false']),
    // The JobHead is a dashboard subprocess titled `ray-dashboard-JobHead-<n>`; the agent `ray::DashboardAgent`.
    killJobHead: (t) => must(['exec', '-n', t.namespace, needHead(t), '-c', headContainer, '--', 'pkill', '-f', 'ray-dashboard-JobHead']),
    killDashboardAgent: (t) => must(['exec', '-n', t.namespace, needHead(t), '-c', headContainer, '--', 'pkill', '-9', '-f', 'ray::DashboardAgent']),
    forceDeleteHeadPod: (t) => must(['delete', 'pod', '-n', t.namespace, needHead(t), '--force', '--grace-period=0']),
    deleteHeadPod: (t) => must(['delete', 'pod', '-n', t.namespace, needHead(t), '--wait=false']),
    stopOperator: () => Promise.reject(new Error('the kubectl driver does not own the operator (scenarios that need it declare needs: operatorRestart)')),
    startOperator: () => Promise.reject(new Error('the kubectl driver does not own the operator')),
    suspend: (t) => must(['patch', 'rayjob', '-n', t.namespace, t.rayJob, '--type', 'merge', '-p', '{"spec":{"suspend":true}}']),
    resume: (t) => must(['patch', 'rayjob', '-n', t.namespace, t.rayJob, '--type', 'merge', '-p', '{"spec":{"suspend":false}}']),
  };
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
      const r = await kubectl(['get', kinds[resource], '-n', namespace, name, '-o', 'json', '--ignore-not-found']);
      if (r.code !== 0) throw new Error(`kubectl get ${resource} ${namespace}/${name}: ${r.stderr.trim()}`);
      return r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as KubeObject);
    },
    async list(resource: Resource, namespace: string, labelSelector?: string) {
      const out = await must(['get', kinds[resource], '-n', namespace, '-o', 'json', ...(labelSelector ? ['-l', labelSelector] : [])]);
      return (JSON.parse(out) as { items: KubeObject[] }).items;
    },
    async remove(resource, namespace, name) {
      await must(['delete', kinds[resource], '-n', namespace, name, '--wait=false', '--ignore-not-found']);
    },
    async mergePatch(resource, namespace, name, patch) {
      await must(['patch', kinds[resource], '-n', namespace, name, '--type', 'merge', '-p', JSON.stringify(patch)]);
    },
    async dashboard(namespace, service, path): Promise<DashboardAnswer | undefined> {
      const r = await kubectl(['get', '--raw', `/api/v1/namespaces/${namespace}/services/${service}:dashboard/proxy${path}`]);
      if (r.code === 0) return { status: 200, body: r.stdout };
      const status = /\((\d{3})\)|status code (\d{3})|Error from server \((\w+)\)/.exec(r.stderr);
      return { status: Number(status?.[1] ?? status?.[2] ?? 0) || (r.stderr.includes('NotFound') ? 404 : 503), body: r.stderr };
    },
    fault: async (fault, target) => { await faults[fault](target); },
    close: async () => {},
  };
}
