// Fault injection against a running sandbox, through the API like a user or the cluster would:
// delete / force-delete / evict a pod, OOM-kill a container (the kubelet kills it with SIGKILL and
// reports OOMKilled, exit 137), and the Ray emulator's faults on a head pod (its control endpoint).
import { describeError, resources, type KubeClient, type KubeResult } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import type { Kubelet } from '../kubelet/kubelet.ts';

export type FaultResult = { ok: true } | { ok: false; message: string };

const outcome = (result: KubeResult<unknown>, what: string): FaultResult =>
  result.ok ? { ok: true } : { ok: false, message: `${what}: ${result.error.status} ${result.error.message}` };

/** `kubectl delete pod`: graceful, with the pod's terminationGracePeriodSeconds unless given. */
export async function deletePod(client: KubeClient, namespace: string, name: string, gracePeriodSeconds?: number): Promise<FaultResult> {
  return outcome(await client.delete(resources.pods, { namespace, name }, gracePeriodSeconds === undefined ? undefined : { gracePeriodSeconds }), `delete pod ${namespace}/${name}`);
}

/** `kubectl delete pod --force --grace-period=0`: the object goes at once, the kubelet kills without grace. */
export async function forceDeletePod(client: KubeClient, namespace: string, name: string): Promise<FaultResult> {
  return outcome(await client.delete(resources.pods, { namespace, name }, { gracePeriodSeconds: 0 }), `force-delete pod ${namespace}/${name}`);
}

/** Eviction through pods/eviction (the API server adds the DisruptionTarget condition). */
export async function evictPod(client: KubeClient, namespace: string, name: string, gracePeriodSeconds?: number): Promise<FaultResult> {
  const body: Record<string, unknown> = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } };
  if (gracePeriodSeconds !== undefined) body.deleteOptions = { gracePeriodSeconds };
  return outcome(await client.create(resources.pods, body, { namespace, name, subresource: 'eviction' }), `evict pod ${namespace}/${name}`);
}

/** Kills a container as the OOM killer would; the kubelet reports reason OOMKilled, exit code 137. */
export function oomKillContainer(kubelet: Kubelet, namespace: string, pod: string, container: string): FaultResult {
  return kubelet.oomKill(namespace, pod, container)
    ? { ok: true }
    : { ok: false, message: `oom-kill: container ${container} of pod ${namespace}/${pod} is not running on ${kubelet.nodeName}` };
}

export type RayHeadFault =
  | { fault: 'restartJobHead'; downForMs?: number }
  | { fault: 'killAgent' }
  | { fault: 'stopDashboard' }
  | { fault: 'startDashboard' }
  | { fault: 'loseHead' }
  | { fault: 'dropLastLogChunk'; enabled: boolean }
  | { fault: 'slowAnswers'; ms: number }
  | { fault: 'fail5xx'; count: number; status?: number };

/** The port the emulator's fault control listens on inside a head pod (see images/ray-image.ts). */
export const rayFaultControlPort = 18265;

/** Triggers a Ray emulator fault on a head pod through its control endpoint (the pod's IP, control port). */
export async function rayHeadFault(client: KubeClient, namespace: string, podName: string, request: RayHeadFault, port = rayFaultControlPort): Promise<FaultResult> {
  const pod = await client.get<Pod>(resources.pods, { namespace, name: podName });
  if (!pod.ok) return { ok: false, message: `ray fault: pod ${namespace}/${podName}: ${describeError(pod.error)}` };
  const ip = pod.value.status?.podIP;
  if (ip === undefined || ip === '') return { ok: false, message: `ray fault: pod ${namespace}/${podName} has no IP yet` };
  const { fault, ...params } = request;
  const query = new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString();
  try {
    const response = await fetch(`http://${ip}:${port}/${fault}${query === '' ? '' : `?${query}`}`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return response.ok ? { ok: true } : { ok: false, message: `ray fault ${fault}: ${response.status} ${text}` };
  } catch (error) {
    return { ok: false, message: `ray fault ${fault} on ${ip}:${port}: ${(error as Error).message}` };
  }
}
