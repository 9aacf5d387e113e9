// The default driver: a sandbox cluster in this process tree (API server, Job controller, kubelet running
// pods as real processes, the Ray emulator as the Ray image) with our operator as a separate process. Faults
// are in-process: pods deleted through the API as `kubectl delete` would, Ray faults through the emulator's
// control port inside the head pod, the operator stopped and started as a process.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetch } from 'undici';
import { startSandbox, type Sandbox, type SandboxOptions } from '@rayjob/sandbox';
import type { FaultName } from '../scenario/types.ts';
import { startApiFaultProxy, type ApiFaultProxy } from './api-fault-proxy.ts';
import { operatorProcess, type OperatorProcess } from './operator-process.ts';
import { killPodProcesses, rayProcessPatterns } from './pod-processes.ts';
import { resourcePath, restAccessFromKubeconfig, type RestAccess } from './rest-access.ts';
import { scenarioImages, type ScenarioImageOptions } from './sandbox-images.ts';
import type { Driver, FaultTarget, KubeObject, Resource } from './types.ts';

const crds = ['ray.io_rayjobs.yaml', 'ray.io_rayclusters.yaml'].map((f) => fileURLToPath(new URL(`../../../packages/core/crds/${f}`, import.meta.url)));

/** The emulator's fault control port inside a head pod (packages/sandbox ray image). */
const rayFaultControlPort = 18265;

export interface SandboxDriverOptions {
  /** Operator flags beyond the defaults. */
  operatorArgs?: string[];
  /** Keep the sandbox folder (logs, kubeconfig) after close. */
  dir?: string;
  /** Put the API fault proxy between the operator and the API server (the campaign's API faults). */
  apiFaults?: boolean;
  /**
   * A real Ray installation's bin directory: `rayproject/ray` runs real Ray instead of the emulator, and Ray
   * faults are real (the head pod's JobHead process killed, its DashboardAgent killed with SIGKILL).
   */
  realRayBin?: string;
  /** The node's settings (probe timing, the environment every pod process starts with). */
  node?: SandboxOptions['node'];
  /** Pod programs that start cheaper (the submitter bundle, a compile cache): for runs with many pods. */
  podPrograms?: ScenarioImageOptions;
}

export interface SandboxDriver extends Driver {
  readonly sandbox: Sandbox;
  readonly operator: OperatorProcess;
  readonly operatorLog: string;
  readonly proxy?: ApiFaultProxy;
}

async function expectOk(what: string, result: Promise<{ status: number; text: string }>, ok: (status: number) => boolean = (s) => s < 300): Promise<void> {
  const { status, text } = await result;
  if (!ok(status)) throw new Error(`${what}: ${status} ${text.slice(0, 300)}`);
}

function startOperator(options: SandboxDriverOptions, kubeconfigPath: string, logFile: string): OperatorProcess {
  const started = operatorProcess({
    kubeconfigPath,
    logFile,
    ...(options.operatorArgs && { extraArgs: options.operatorArgs }),
    ...(options.podPrograms?.compileCache !== undefined && { env: { NODE_COMPILE_CACHE: options.podPrograms.compileCache } }),
  });
  started.start();
  return started;
}

/**
 * The sandbox, and the operator when it could start early. The operator's kubeconfig is the API server's (known
 * once it answers) or the fault proxy's (known once the sandbox is up). Without the proxy the operator starts
 * alongside the node and controllers, not after them.
 */
async function bootSandbox(options: SandboxDriverOptions): Promise<{ sandbox: Sandbox; early: OperatorProcess | undefined }> {
  const images = scenarioImages(options.podPrograms, options.realRayBin);
  let early: OperatorProcess | undefined;
  try {
    const sandbox = await startSandbox({
      ...(options.dir && { dir: options.dir }), ...(options.node && { node: options.node }), crds, images,
      ...(!options.apiFaults && { onApiServer: (api: { kubeconfigPath: string }) => { early = startOperator(options, api.kubeconfigPath, join(dirname(api.kubeconfigPath), 'operator.log')); } }),
    });
    return { sandbox, early };
  } catch (error) {
    await early?.stop();
    throw error;
  }
}

/** A Ray fault on a head pod: the emulator's control port, or with real Ray the pod's own processes. */
async function rayFault(rest: RestAccess, realRayBin: string | undefined, target: FaultTarget, fault: 'restartJobHead' | 'killAgent'): Promise<void> {
  if (!target.headPod) throw new Error(`${fault}: the RayJob ${target.namespace}/${target.rayJob} has no head pod`);
  const pod = await rest.get('pods', target.namespace, target.headPod);
  const ip = (pod?.status as { podIP?: string } | undefined)?.podIP;
  if (!ip) throw new Error(`${fault}: head pod ${target.headPod} has no IP`);
  if (realRayBin !== undefined) {
    // What `kubectl exec <head> -- pkill [-9] -f ...` does on a real cluster, limited to this head pod's processes.
    if (fault === 'restartJobHead') killPodProcesses(ip, rayProcessPatterns.jobHead, 'SIGTERM');
    else killPodProcesses(ip, rayProcessPatterns.dashboardAgent, 'SIGKILL');
    return;
  }
  const response = await fetch(`http://${ip}:${rayFaultControlPort}/${fault}`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${fault}: ${response.status} ${await response.text()}`);
}

type DeleteObject = (resource: Resource, namespace: string, name: string, body?: Record<string, unknown>) => Promise<void>;

/** Every fault in-process: deletes through the API as `kubectl delete` would, Ray faults, the operator as a process. */
function sandboxFaults(parts: { rest: RestAccess; realRayBin: string | undefined; deleteObject: DeleteObject; operator: OperatorProcess; driver: () => Driver }): Record<FaultName, (t: FaultTarget) => Promise<void>> {
  const { rest, realRayBin, deleteObject, operator } = parts;
  return {
    deleteSubmitterPod: (t) => {
      if (!t.submitterPod) throw new Error(`no submitter pod for ${t.namespace}/${t.rayJob}`);
      return deleteObject('pods', t.namespace, t.submitterPod);
    },
    deleteSubmitterJob: (t) => deleteObject('jobs', t.namespace, t.rayJob, { propagationPolicy: 'Background' }),
    killJobHead: (t) => rayFault(rest, realRayBin, t, 'restartJobHead'),
    killDashboardAgent: (t) => rayFault(rest, realRayBin, t, 'killAgent'),
    forceDeleteHeadPod: (t) => {
      if (!t.headPod) throw new Error(`no head pod for ${t.namespace}/${t.rayJob}`);
      return deleteObject('pods', t.namespace, t.headPod, { gracePeriodSeconds: 0 });
    },
    deleteHeadPod: (t) => {
      if (!t.headPod) throw new Error(`no head pod for ${t.namespace}/${t.rayJob}`);
      return deleteObject('pods', t.namespace, t.headPod);
    },
    stopOperator: () => operator.stop(),
    startOperator: async () => operator.start(),
    suspend: (t) => parts.driver().mergePatch('rayjobs', t.namespace, t.rayJob, { spec: { suspend: true } }),
    resume: (t) => parts.driver().mergePatch('rayjobs', t.namespace, t.rayJob, { spec: { suspend: false } }),
  };
}

export async function startSandboxDriver(options: SandboxDriverOptions = {}): Promise<SandboxDriver> {
  const { sandbox, early } = await bootSandbox(options);
  const rest: RestAccess = restAccessFromKubeconfig(sandbox.kubeconfigPath);
  const operatorLog = join(sandbox.dir, 'operator.log');
  const proxy = options.apiFaults ? await startApiFaultProxy(sandbox.kubeconfigPath, join(sandbox.dir, 'operator-kubeconfig')) : undefined;
  const operator = early ?? startOperator(options, proxy?.kubeconfigPath ?? sandbox.kubeconfigPath, operatorLog);

  const deleteObject: DeleteObject = (resource, namespace, name, body) =>
    expectOk(`delete ${resource} ${namespace}/${name}`, rest.request('DELETE', resourcePath(resource, namespace, name), body), (s) => s < 300 || s === 404);
  const faults = sandboxFaults({ rest, realRayBin: options.realRayBin, deleteObject, operator, driver: () => driver });

  const driver: SandboxDriver = {
    name: 'sandbox',
    kubeconfigPath: sandbox.kubeconfigPath,
    abilities: new Set(options.realRayBin === undefined ? ['operatorRestart'] : ['operatorRestart', 'realRay']),
    sandbox,
    operator,
    operatorLog,
    ...(proxy && { proxy }),
    createNamespace: (namespace) =>
      expectOk(`create namespace ${namespace}`, rest.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }), (s) => s < 300 || s === 409),
    deleteNamespace: (namespace) => expectOk(`delete namespace ${namespace}`, rest.request('DELETE', `/api/v1/namespaces/${namespace}`), (s) => s < 300 || s === 404),
    async apply(object) {
      const o = object as KubeObject;
      const resource = `${String(o.kind).toLowerCase()}s` as Resource;
      await expectOk(`create ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`, rest.request('POST', resourcePath(resource, o.metadata.namespace ?? 'default'), object));
    },
    get: (resource, namespace, name) => rest.get(resource, namespace, name),
    remove: (resource, namespace, name) => deleteObject(resource, namespace, name, { propagationPolicy: 'Background' }),
    list: (resource, namespace, labelSelector) => rest.list(resource, namespace, labelSelector),
    mergePatch: (resource, namespace, name, patch) =>
      expectOk(`patch ${resource} ${namespace}/${name}`, rest.request('PATCH', resourcePath(resource, namespace, name), patch, 'application/merge-patch+json')),
    dashboard: (namespace, service, path) => rest.dashboard(namespace, service, path),
    async dashboardPost(namespace, service, path, body) {
      const { status, text } = await rest.request('POST', `/api/v1/namespaces/${namespace}/services/${service}:dashboard/proxy${path}`, body);
      return { status, body: text };
    },
    fault: (fault, target) => faults[fault](target),
    async close() {
      await operator.stop();
      await proxy?.close();
      await rest.close();
      await sandbox.stop();
    },
  };
  return driver;
}
