// `ray kuberay-autoscaler --cluster-name C --cluster-namespace N` in emulated Ray pods: a stand-in for Ray's
// KubeRay autoscaler that talks to the API server exactly as Ray's node provider does — from inside the pod,
// with the pod's ServiceAccount token and CA (/var/run/secrets/kubernetes.io/serviceaccount) at
// https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT:
//   GET   rayclusters/C, pods/$RAY_HEAD_POD_NAME (its resourceVersion), then
//   GET   pods?labelSelector=ray.io/cluster=C&resourceVersion=R&resourceVersionMatch=NotOlderThan
//   PATCH rayclusters/C (application/json-patch+json) replacing workerGroupSpecs/i/replicas and
//         workerGroupSpecs/i/scaleStrategy {workersToDelete}; a round waits while a listed worker still exists,
//         then clears the lists (Ray's safe_to_scale).
// The demand comes from the head's emulator (GET /resourceDemand on its control port, e.g. {"CPU": 3}), since
// the emulator runs no tasks: workers are added for CPUs asked for and not yet covered, up to maxReplicas, and a
// worker beyond what the demand needs for idleTimeoutSeconds (the group's, else autoscalerOptions', else 60) is
// named in workersToDelete with replicas lowered, never below minReplicas. upscalingMode Conservative adds at
// most as many pending workers as the cluster has running nodes; Default and Aggressive add all at once.
// The loop period is AUTOSCALER_UPDATE_INTERVAL_S (Ray's variable; 5 s by default).
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export async function runAutoscaler(args, env) {
  const flag = (name) => {
    const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
    if (i < 0) return undefined;
    return args[i].includes('=') ? args[i].slice(name.length + 1) : args[i + 1];
  };
  const cluster = flag('--cluster-name');
  const namespace = flag('--cluster-namespace');
  if (!cluster || !namespace) {
    console.error('ray kuberay-autoscaler: --cluster-name and --cluster-namespace are required');
    process.exit(2);
  }
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  if (!host) {
    console.error('ray kuberay-autoscaler: KUBERNETES_SERVICE_HOST is not set (not running in a pod?)');
    process.exit(1);
  }
  const intervalMs = Number(env.AUTOSCALER_UPDATE_INTERVAL_S || '5') * 1000;
  const controlUrl = `http://${env.RAYJOB_BIND_HOST || '127.0.0.1'}:${env.RAYJOB_RAY_CONTROL_PORT || '18265'}`;
  const idleSince = new Map();
  console.log(`autoscaler (sandbox stand-in): cluster ${namespace}/${cluster}, every ${intervalMs} ms`);
  process.on('SIGTERM', () => process.exit(0));
  for (;;) {
    try {
      await round({ cluster, namespace, host, port, controlUrl, idleSince, headPod: env.RAY_HEAD_POD_NAME, now: Date.now() });
    } catch (error) {
      console.log(`autoscaler round failed: ${error.message}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

function kube(ctx, method, path, body) {
  // Read every time: the kubelet rotates the projected token.
  const token = readFileSync(`${SA_DIR}/token`, 'utf8').trim();
  const ca = readFileSync(`${SA_DIR}/ca.crt`, 'utf8');
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({
      host: ctx.host, port: ctx.port, method, path, ca, servername: ctx.host,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload && { 'content-type': 'application/json-patch+json' }) },
    }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        if ((res.statusCode ?? 500) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
        else resolve(JSON.parse(text));
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const cpuOf = (value) => {
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  return text.endsWith('m') ? Number(text.slice(0, -1)) / 1000 : Number(text);
};

/** CPUs one worker of the group offers Ray: rayStartParams num-cpus, else the Ray container's CPU limit, else request. */
function workerCpus(group) {
  const fromParams = cpuOf(group.rayStartParams?.['num-cpus']);
  if (fromParams !== undefined && Number.isFinite(fromParams)) return fromParams;
  const resources = group.template?.spec?.containers?.[0]?.resources ?? {};
  const cpu = cpuOf(resources.limits?.cpu ?? resources.requests?.cpu);
  return cpu !== undefined && Number.isFinite(cpu) ? Math.ceil(cpu) : 1;
}

async function round(ctx) {
  const ns = encodeURIComponent(ctx.namespace);
  const rcPath = `/apis/ray.io/v1/namespaces/${ns}/rayclusters/${encodeURIComponent(ctx.cluster)}`;
  const rc = await kube(ctx, 'GET', rcPath);
  let query = `labelSelector=${encodeURIComponent(`ray.io/cluster=${ctx.cluster}`)}`;
  if (ctx.headPod) {
    const head = await kube(ctx, 'GET', `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(ctx.headPod)}`);
    query += `&resourceVersion=${head.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`;
  }
  const pods = (await kube(ctx, 'GET', `/api/v1/namespaces/${ns}/pods?${query}`)).items.filter((p) => !p.metadata.deletionTimestamp);
  const groups = rc.spec.workerGroupSpecs ?? [];
  const live = new Set(pods.map((p) => p.metadata.name));
  // safe_to_scale: wait for the operator to delete every named worker, then clear the lists.
  const clear = [];
  for (const [i, g] of groups.entries()) {
    const names = g.scaleStrategy?.workersToDelete ?? [];
    if (names.some((n) => live.has(n))) { console.log(`waiting for the operator to remove ${names.filter((n) => live.has(n)).join(', ')}`); return; }
    if (names.length > 0) clear.push({ op: 'replace', path: `/spec/workerGroupSpecs/${i}/scaleStrategy`, value: { workersToDelete: [] } });
  }
  if (clear.length > 0) {
    await kube(ctx, 'PATCH', rcPath, clear);
    console.log(`cleared workersToDelete: ${JSON.stringify(clear)}`);
    return;
  }
  const demand = await fetch(`${ctx.controlUrl}/resourceDemand`).then((r) => r.json());
  let wantedCpus = Number(demand.CPU ?? 0);
  const options = rc.spec.autoscalerOptions ?? {};
  const running = pods.filter((p) => p.status?.phase === 'Running').length;
  const patch = [];
  const seen = new Set();
  for (const [i, g] of groups.entries()) {
    const min = g.minReplicas ?? 0;
    const max = g.maxReplicas ?? 2147483647;
    const cpus = workerCpus(g);
    const workers = pods.filter((p) => p.metadata.labels?.['ray.io/node-type'] === 'worker' && p.metadata.labels?.['ray.io/group'] === g.groupName)
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const needed = Math.min(max, Math.max(min, cpus > 0 ? Math.ceil(wantedCpus / cpus) : 0));
    wantedCpus = Math.max(0, wantedCpus - needed * cpus);
    const replicas = g.replicas ?? 1;
    if (needed > replicas) {
      let target = needed;
      if (options.upscalingMode === 'Conservative') {
        const pending = workers.filter((p) => p.status?.phase !== 'Running').length;
        target = Math.min(needed, replicas + Math.max(0, running - pending));
      }
      if (target > replicas) patch.push({ op: 'replace', path: `/spec/workerGroupSpecs/${i}/replicas`, value: target });
      for (const w of workers) ctx.idleSince.delete(w.metadata.name);
      continue;
    }
    const timeoutMs = 1000 * (g.idleTimeoutSeconds ?? options.idleTimeoutSeconds ?? 60);
    const idle = workers.slice(needed);
    const expired = [];
    for (const w of workers) {
      const name = w.metadata.name;
      seen.add(name);
      if (!idle.includes(w)) { ctx.idleSince.delete(name); continue; }
      if (!ctx.idleSince.has(name)) ctx.idleSince.set(name, ctx.now);
      if (ctx.now - ctx.idleSince.get(name) >= timeoutMs) expired.push(name);
    }
    const removable = expired.slice(0, Math.max(0, replicas - min));
    if (removable.length > 0) {
      patch.push({ op: 'replace', path: `/spec/workerGroupSpecs/${i}/replicas`, value: replicas - removable.length });
      patch.push({ op: 'replace', path: `/spec/workerGroupSpecs/${i}/scaleStrategy`, value: { workersToDelete: removable } });
    }
  }
  for (const name of ctx.idleSince.keys()) if (!seen.has(name)) ctx.idleSince.delete(name);
  if (patch.length === 0) return;
  console.log(`Autoscaler is submitting the following patch to RayCluster ${ctx.cluster} in namespace ${ctx.namespace}: ${JSON.stringify(patch)}`);
  await kube(ctx, 'PATCH', rcPath, patch);
}
