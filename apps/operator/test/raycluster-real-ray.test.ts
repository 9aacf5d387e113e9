// Our RayCluster controller bringing up a real Ray 2.58 cluster on the sandbox: a head and two worker groups whose
// processes are real Ray (GCS, raylets, dashboard, agents), ready by KubeRay's probes, the workers registered with the
// head as Ray itself reports (the dashboard's node list); then a group scaled up and a deleted worker replaced.
// Runs wherever the real-Ray tier is provisioned (tools/ray/provision.sh), so in CI; elsewhere it reports itself
// skipped, with why. Real Ray is heavy: by hand, run it under `flock /work/wt/realray.lock` beside other real-Ray runs.
//
// Why a loaded machine used to crash-loop the head (and how a KubeRay user avoids it): `ray start --head` starts the
// GCS, then the Ray Client server, then the dashboard (and waits for its modules), and only then the raylet, which
// starts the dashboard and runtime-env agents and registers the node once they have written their port files. The
// runtime-env agent's port is self-assigned unless `--runtime-env-agent-port` is given, so the client server asks
// the GCS for its own node, and Ray 2.58 gives that question a fixed 30 s (services.get_node_with_retry, not
// configurable). On a busy node the dashboard's imports alone take longer; the client server exits 1,
// `ray start --block` takes the whole head down, the kubelet restarts it with a growing back-off, and each new head
// invalidates the workers (WrongClusterID). Pinning the agents' ports, documented `ray start` flags that KubeRay passes
// through from rayStartParams unchanged, removes that wait (and the raylet's wait for the metrics agent's port file).
// What remains is Ray's own behaviour, the same under KubeRay on a slow node: the raylet still waits ~15 s for the
// dashboard agent's HTTP-port file (Ray never passes it that port) and `ray start` gives the raylet 30 s to register,
// and a worker's `ray start` gives up after ~40 s without a head node in the GCS; each exits, and the kubelet
// restarts it (10 s, 20 s, ... back-off). Workers then take longer, the head no longer crash-loops.
// Measured (nice 10): unpinned, at load ~3 the suite took ~70 s with no restarts, and at load 15-25 the head
// crash-looped 4 times in 9 minutes (never ready); pinned, at load 35-41 the head did not restart, the workers
// restarted 1-2 times each, ready took 211 s and a replacement worker needed more than 150 s; at load 16-26 the
// suite took 165 s (ready 93 s, head 0 restarts, one worker restart).
import { findRealRayBin } from '@rayjob/sandbox';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { clusterPath, clusterPods, getCluster, RAY_IMAGE, useRayClusterEnv, waitForState, type RayClusterEnv } from './support/raycluster-env.ts';

const rayBin = findRealRayBin();
const skipReason = rayBin === undefined ? ' (skipped: real Ray is not provisioned; run tools/ray/provision.sh or set RAYJOB_REAL_RAY_BIN)' : '';
// The default reporter shows a skipped suite's name only when verbose: say why it is skipped either way.
if (skipReason !== '') console.warn(`a RayCluster on real Ray${skipReason}`);

const name = 'real-ray';
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/**
 * A KubeRay-style spec sized for a 2-core machine: each node gets one CPU, and the user-level knobs KubeRay passes
 * through unchanged trim the processes a node runs (no log monitor, no usage-stats reporting, no autoscaler monitor
 * on the head, which nothing here autoscales) and pin the agents' ports (see the header: no 30 s wait for them).
 */
const rayEnv = [{ name: 'RAY_USAGE_STATS_ENABLED', value: '0' }];
const lean = { 'include-log-monitor': 'false', 'runtime-env-agent-port': '52366', 'dashboard-agent-grpc-port': '52367' };
const worker = (groupName: string) => ({
  groupName,
  replicas: 1,
  minReplicas: 0,
  maxReplicas: 3,
  rayStartParams: lean,
  template: { spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'ray-worker', image: RAY_IMAGE, env: rayEnv, resources: { limits: { cpu: '1', memory: '1Gi' } } }] } },
});

const manifest: Json = {
  apiVersion: 'ray.io/v1',
  kind: 'RayCluster',
  metadata: { name, namespace: 'default' },
  spec: {
    rayVersion: '2.58.0',
    headGroupSpec: {
      rayStartParams: { ...lean, 'no-monitor': 'true' },
      template: {
        spec: {
          terminationGracePeriodSeconds: 5,
          containers: [{
            name: 'ray-head',
            image: RAY_IMAGE,
            env: rayEnv,
            ports: [{ name: 'gcs-server', containerPort: 6379 }, { name: 'dashboard', containerPort: 8265 }, { name: 'client', containerPort: 10001 }],
            resources: { limits: { cpu: '1', memory: '2Gi' } },
          }],
        },
      },
    },
    workerGroupSpecs: [worker('group-a'), worker('group-b')],
  },
};

const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp);

/** Alive worker nodes as the real head's dashboard lists them, by node IP. */
async function aliveWorkerIPs(headIP: string): Promise<string[]> {
  const res = await fetch(`http://${headIP}:8265/nodes?view=summary`, { signal: AbortSignal.timeout(5000) });
  const body = (await res.json()) as Json;
  return (body.data.summary as Json[]).filter((n) => !n.raylet.isHeadNode && n.raylet.state === 'ALIVE').map((n) => n.ip as string).sort();
}

/** Container restarts per Pod (a raylet that missed its agent's start under load exits, and the kubelet restarts it). */
async function restarts(): Promise<string> {
  const pods = live(await clusterPods(env.url, name));
  return pods.map((p) => `${p.metadata.labels['ray.io/group']}=${(p.status?.containerStatuses ?? []).reduce((n: number, c: Json) => n + (c.restartCount ?? 0), 0)}`).join(' ');
}

async function workerPodIPs(): Promise<string[]> {
  return live(await clusterPods(env.url, name, 'ray.io/node-type=worker')).map((p) => p.status?.podIP as string).filter(Boolean).sort();
}

let env: RayClusterEnv;

/** The end of every container's log, the run before a restart too: what Ray said when a test fails. */
async function logTails(lines = 30): Promise<string> {
  const out: string[] = [];
  for (const pod of await clusterPods(env.url, name)) {
    for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      for (const previous of (c.restartCount ?? 0) > 0 ? [true, false] : [false]) {
        const query = `container=${c.name}&tailLines=${lines}${previous ? '&previous=true' : ''}`;
        const res = await fetch(`${env.url}/api/v1/namespaces/default/pods/${pod.metadata.name}/log?${query}`);
        out.push(`--- ${pod.metadata.name}/${c.name}${previous ? ' (previous run)' : ''}\n${(await res.text()).trimEnd()}`);
      }
    }
  }
  return out.join('\n');
}

/** On a failure, print the Pods' restarts and log tails (CI keeps nothing else). */
function explainFailure(): void {
  onTestFailed(async () => {
    console.log(`container restarts: ${await restarts()}\n${await logTails()}`);
  });
}

/** The head's Pod IP as the cluster's status reports it now (a restarted head keeps its Pod, a recreated one not). */
async function headIP(): Promise<string> {
  return eventually('the head Pod IP in status', async () => (await getCluster(env.url, name)).status?.head?.podIP || undefined, 30_000, 500);
}

describe.skipIf(skipReason !== '')(`a RayCluster on real Ray${skipReason}`, () => {
  env = useRayClusterEnv({ realRay: true });
  // Runs before the environment's own afterAll (after-hooks run in reverse order): the cluster goes first.
  afterAll(async () => {
    await api(env.url, 'DELETE', clusterPath(name));
  }, 60_000);

  it('becomes ready with a head and two worker groups, the workers registered with the real head', async () => {
    explainFailure();
    const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', manifest);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ready = await waitForState(env.url, name, 'ready', 420_000);
    console.log(`real-Ray cluster ready after ${elapsed()}; container restarts: ${await restarts()}`);
    expect(ready.status).toMatchObject({ readyWorkerReplicas: 2, availableWorkerReplicas: 2, desiredWorkerReplicas: 2 });
    const workers = await workerPodIPs();
    expect(workers).toHaveLength(2);
    const registered = await eventually('both workers alive in the head\'s node list', async () => {
      const ips = await aliveWorkerIPs(await headIP());
      return workers.every((ip) => ips.includes(ip)) ? ips : undefined;
    }, 60_000, 1000);
    expect(registered).toEqual(workers);
    const version = (await (await fetch(`http://${await headIP()}:8265/api/version`)).json()) as Json;
    expect(version.ray_version).toBe('2.58.0');
  }, 540_000);

  it('scales a group up: the new worker joins the real head', async () => {
    explainFailure();
    await eventually('replicas patched', async () => {
      const c = await getCluster(env.url, name);
      c.spec.workerGroupSpecs[0].replicas = 2;
      return (await api(env.url, 'PUT', clusterPath(name), c)).status === 200;
    }, 10_000);
    await eventually('3 ready workers in status', async () => (await getCluster(env.url, name)).status?.readyWorkerReplicas === 3, 240_000, 500);
    const workers = await workerPodIPs();
    expect(workers).toHaveLength(3);
    await eventually('3 workers alive in the head\'s node list', async () => {
      const ips = await aliveWorkerIPs(await headIP());
      return workers.every((ip) => ips.includes(ip)) || undefined;
    }, 60_000, 1000);
    console.log(`scaled to 3 workers after ${elapsed()}; container restarts: ${await restarts()}`);
  }, 360_000);

  it('replaces a deleted worker Pod, and the replacement registers', async () => {
    explainFailure();
    const [victim] = live(await clusterPods(env.url, name, 'ray.io/group=group-b'));
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${victim.metadata.name}`);
    const replacement = await eventually('a ready replacement in group-b', async () => {
      const pods = live(await clusterPods(env.url, name, 'ray.io/group=group-b'));
      const next = pods.find((p) => p.metadata.name !== victim.metadata.name);
      const ready = next?.status?.conditions?.some((c: Json) => c.type === 'Ready' && c.status === 'True');
      return pods.length === 1 && ready ? next : undefined;
    }, 240_000, 500);
    await eventually('the replacement alive in the head\'s node list', async () => (await aliveWorkerIPs(await headIP())).includes(replacement.status.podIP) || undefined, 60_000, 1000);
    console.log(`worker replaced after ${elapsed()}; container restarts: ${await restarts()}`);
  }, 360_000);
});
