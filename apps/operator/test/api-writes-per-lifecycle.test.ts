// API writes of one RayJob lifecycle, counted by a proxy between the operator and the sandbox's API server
// (the bench's counting proxy): the RayJob controller writes each real change once — no failed status writes
// from a stale cache, no no-op writes, and a RayCluster status change mirrored at most once.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '@rayjob/kube-runtime';
import { kubeconfigYaml, startSandbox, type AuditEvent, type Sandbox } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse, classify } from '../bench/support/api-writes.ts';
import { startCountingProxy, type CountingProxy } from '../bench/support/counting-proxy.ts';
import { loadConfig } from '../src/config/config.ts';
import { RAY_CRDS, sandboxImages } from './support/sandbox-images.ts';
import { startOperator, type RunningOperator } from '../src/operator.ts';
import { eventually } from './support/api.ts';
import { createRayJob, rayJobManifest, SUBMITTER_IMAGE, waitForDeployment } from './support/env.ts';
import { discoverPlurals, saveOperatorCalls } from './support/operator-calls.ts';

let sandbox: Sandbox;
let proxy: CountingProxy;
let operator: RunningOperator;
const audit: AuditEvent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ crds: RAY_CRDS, images: sandboxImages({ submitterImages: [SUBMITTER_IMAGE] }), node: { timing: { probeTimeScale: 0.2 } }, apiServer: { audit: (e) => audit.push(e) } });
  const target = new URL(sandbox.url);
  proxy = await startCountingProxy({
    target: { host: target.hostname, port: Number(target.port) },
    beforeWrite: async (_method, path) => {
      const res = await fetch(`${sandbox.url}${path.split('?')[0]?.replace(/\/status$/, '')}`);
      return res.ok ? await res.json() : undefined;
    },
  });
  const kubeconfig = join(sandbox.dir, 'counted-kubeconfig');
  await writeFile(kubeconfig, kubeconfigYaml(proxy.url), { mode: 0o600 });
  const loaded = loadConfig(['--enable-leader-election=false', '--metrics-addr=0', '--health-probe-bind-address=0', '--submitter-image', SUBMITTER_IMAGE, '--kubeconfig', kubeconfig], {});
  if (loaded.ok !== true) throw new Error(`bad flags: ${JSON.stringify(loaded)}`);
  operator = await startOperator({ config: loaded.config, ...(sandbox.node && { dashboardLookup: sandbox.node.lookup }), logger: createLogger({ level: process.env.OPERATOR_TEST_LOG ?? 'silent' }) });
}, 120_000);
afterAll(async () => {
  await operator?.stop();
  await proxy?.stop();
  // Discovery while the sandbox serves (the CRDs may come with the test); the audit once it stopped.
  const plurals = sandbox && await discoverPlurals(sandbox.url);
  await sandbox?.stop();
  if (plurals) saveOperatorCalls(audit, plurals);
});

/** The operator's writes to one RayJob (and its /status), once the lifecycle has gone quiet. */
async function rayJobWrites(name: string) {
  // Quiet: no request to this RayJob for a second (bounded), so late writes of the lifecycle are counted too.
  await eventually(`the operator to stop writing RayJob ${name}`, () => {
    const last = proxy.requests.filter((r) => r.path.includes(`/rayjobs/${name}`)).at(-1);
    return !last || Date.now() - last.at > 1_000;
  }, 30_000, 100);
  const mine = proxy.requests.filter((r) => r.path.split('?')[0]?.match(new RegExp(`/rayjobs/${name}(/status)?$`)) && r.method !== 'GET');
  const statusWrites = mine.filter((r) => classify(r).resource === 'rayjobs/status');
  const written = statusWrites.filter((r) => r.status < 300).map((r) => statusOf(r.body));
  const own = ownChanges(written);
  return {
    analysis: analyse(mine),
    statusWrites: own - checkFailureWrites(written),
    commentaryOnly: commentaryOnly(written),
    verdictBeforeSubmitterExit: verdictBeforeSubmitterExit(written),
    mirrorWrites: written.length - own,
    trail: written.map((st, i) => `${st.jobDeploymentStatus ?? ''}/${st.jobStatus ?? ''}${st.jobStatusCheckFailureStartTime ? ' (status check failing)' : ''} [${changedKeys(written[i - 1], st).join(',')}]`).join(' -> '),
    failedStatusWrites: statusWrites.filter((r) => r.status >= 300).map((r) => r.status),
    statusRequests: statusWrites.filter((r) => r.status < 300),
  };
}

type WrittenStatus = { jobDeploymentStatus?: string; jobStatus?: string; jobStatusCheckFailureStartTime?: string; rayClusterStatus?: unknown; conditions?: unknown };

/**
 * Writes that change the RayJob's own fields. The others carry only the mirror of the RayCluster's status
 * (rayClusterStatus, and the conditions summarizing it): one per status write of the RayCluster at most.
 */
function ownChanges(written: readonly WrittenStatus[]): number {
  const mirror = new Set(['rayClusterStatus', 'conditions']);
  return written.filter((st, i) => i === 0 || changedKeys(written[i - 1], st).some((k) => !mirror.has(k))).length;
}

function changedKeys(before: WrittenStatus | undefined, after: WrittenStatus): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  // Key order differs between writes: compare each field with sorted keys.
  const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => p.localeCompare(q))) : x));
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k]));
}

/**
 * Writes that change none of what KubeRay writes a RayJob status for (jobStatus, jobDeploymentStatus, the mirrored
 * RayCluster status, the status-check timer; kuberay-rayjob.md 2.2) nor the dashboard URL (persisted before the
 * K8sJobMode submitter Job that embeds it): only Ray's commentary (message, rayJobInfo) or our conditions. Each
 * such change is held back until the next write (core's statusWorthWriting), or written whole with the change it
 * belongs to (HTTPMode's accepted submission: PENDING with the conditions that say so).
 */
function commentaryOnly(written: readonly WrittenStatus[]): string[] {
  const triggers = ['jobStatus', 'jobDeploymentStatus', 'rayClusterStatus', 'jobStatusCheckFailureStartTime', 'dashboardURL'];
  return written.flatMap((st, i) => {
    const keys = changedKeys(written[i - 1], st);
    return i > 0 && !keys.some((k) => triggers.includes(k)) ? [`write ${i + 1}: ${keys.join(',')}`] : [];
  });
}

/** Successful status writes of the RayCluster `cluster` (by the RayCluster controller). */
function clusterStatusWrites(cluster: string): number {
  return proxy.requests.filter((r) => r.method !== 'GET' && r.status < 300 && (r.path.split('?')[0] ?? '').endsWith(`/rayclusters/${cluster}/status`)).length;
}

function statusOf(body: string | undefined): WrittenStatus {
  try {
    return (JSON.parse(body ?? '{}') as { status?: WrittenStatus }).status ?? {};
  } catch {
    return {};
  }
}

/**
 * Writes that recorded Ray's terminal jobStatus while the deployment stayed Running: in K8sJobMode the RayJob turns
 * terminal only once the submitter Job has finished (KubeRay, kuberay-rayjob.md 2.3 step 9), so a poll that sees the
 * job SUCCEEDED before the submitter exits writes it first — a real change, taken only when the race goes that way.
 */
function verdictBeforeSubmitterExit(written: readonly WrittenStatus[]): number {
  const terminal = new Set(['STOPPED', 'SUCCEEDED', 'FAILED']);
  return written.filter((st, i) => st.jobDeploymentStatus === 'Running' && terminal.has(st.jobStatus ?? '') && written[i - 1]?.jobStatus !== st.jobStatus).length;
}

/**
 * Writes that start or end a status-check failure (KubeRay's jobStatusCheckFailureStartTime): a real change,
 * but one that only a dashboard too slow to answer in time brings (a loaded machine), not the lifecycle itself.
 */
function checkFailureWrites(written: readonly WrittenStatus[]): number {
  let count = 0;
  let failing = false;
  for (const st of written) {
    const now = !!st.jobStatusCheckFailureStartTime;
    if (now !== failing) count += 1;
    failing = now;
  }
  return count;
}

describe('API writes per RayJob lifecycle', { timeout: 180_000 }, () => {
  // Status writes each lifecycle needs at most (besides the mirror of the RayCluster's first status): Initializing;
  // the dashboard URL (K8sJobMode: before the submitter Job is built from it; HTTPMode: together with Running);
  // Running; Ray's PENDING and RUNNING as they are seen; the terminal status. HTTPMode: the pass that submits writes
  // PENDING on Ray's acceptance (addition H) with the conditions that say so, so Ray's first report of the job
  // (PENDING, with its message and start time) writes nothing: Initializing, Running, PENDING, RUNNING if seen,
  // terminal = 5 (it was 6: the next look wrote Ray's info and the JobSubmitted condition). K8sJobMode: Initializing,
  // URL, Running, PENDING and RUNNING if seen, terminal = 6; Ray's terminal status seen before the submitter Job
  // finished is one write more (deployment still Running, see verdictBeforeSubmitterExit), counted when it happened.
  // ConfigMap writes (the RayJob's submitter-state): K8sJobMode records the first submitter's head (a create)
  // and later marks the submitters attach-only (one merge into it); HTTPMode has no submitter.
  it.each([
    ['HTTPMode', 5, 0],
    ['K8sJobMode', 6, 2],
  ])('%s: at most %i status writes, none failed, no no-op writes, %i ConfigMap writes', async (mode, most, configMapWrites) => {
    const name = `writes-${mode.toLowerCase()}`;
    await createRayJob(sandbox.url, rayJobManifest(name, { submissionMode: mode, entrypoint: 'sleep 1; echo done', shutdownAfterJobFinishes: true }));
    await waitForDeployment(sandbox.url, name, 'Complete', 150_000);
    const { analysis, statusWrites, statusRequests, mirrorWrites, failedStatusWrites, trail, verdictBeforeSubmitterExit: early, commentaryOnly: commentary } = await rayJobWrites(name);
    expect(analysis.noOps.map((n) => `${n.kind} ${n.body}`)).toEqual([]);
    expect(failedStatusWrites).toEqual([]);
    // At most one such early verdict, and none in HTTPMode (the deployment turns terminal with Ray's status there).
    expect(early, `writes of Ray's terminal status with the deployment still Running: ${trail}`).toBeLessThanOrEqual(mode === 'K8sJobMode' ? 1 : 0);
    expect(statusWrites, `status writes (besides a status-check failure's start and end): ${trail}`).toBeLessThanOrEqual(most + early);
    expect(commentary, `status writes of Ray's commentary or conditions alone: ${trail}`).toEqual([]);
    // The RayCluster's status is written on its first pass and once ready: the head pod's start in between (its IP,
    // HeadPodReady's "still starting" reasons) rides along with the ready write (compatibility B5; it was 4 writes).
    const cluster = (await (await fetch(`${sandbox.url}/apis/ray.io/v1/namespaces/default/rayjobs/${name}`)).json() as { status?: { rayClusterName?: string } }).status?.rayClusterName ?? '';
    expect(clusterStatusWrites(cluster), 'RayCluster status writes').toBeLessThanOrEqual(2);
    // The RayCluster's status is mirrored when it changes (issue 26): its first status alone (the ready one rides
    // along with the dashboard URL, or with Running in HTTPMode). It was 3: the head's IP and a HeadPodReady reason.
    expect(mirrorWrites, `RayJob writes of the RayCluster's status alone: ${trail}`).toBeLessThanOrEqual(1);
    // The creates (RayCluster, submitter Job, head Services) are sent once, not again from a lagging cache, nor
    // from a pass that read the cache before the previous pass's create reached it (it then asked the dashboard).
    const conflictsOfCreates = proxy.requests.filter((r) => r.method === 'POST' && r.status === 409 && /\/(rayclusters|jobs|services)$/.test(r.path.split('?')[0] ?? '')).map((r) => `${r.path} ${r.body?.slice(0, 120)}`);
    expect(conflictsOfCreates).toEqual([]);
    const stateName = `${name}-submitter-state`;
    const stateWrites = proxy.requests.filter((r) => {
      const path = r.path.split('?')[0] ?? '';
      return r.method !== 'GET' && (path.endsWith(`/configmaps/${stateName}`) || (path.endsWith('/configmaps') && (r.body ?? '').includes(`"${stateName}"`)));
    });
    expect(stateWrites.map((r) => `${r.method} ${r.status}`)).toEqual(Array.from({ length: configMapWrites }, (_, i) => (i === 0 ? 'POST 201' : 'PATCH 200')));
    // The finalizer is added once (its removal comes with the RayJob's deletion, not part of this run).
    expect(analysis.byKind.get('patch rayjobs')).toBe(1);
    // The RayCluster controller writes its status from the object its last write returned while the cache still
    // holds the copy that write replaced: a pod event right after a write does not send a stale resourceVersion.
    const clusterPath = `/rayclusters/${cluster}/status`;
    const clusterStatusFailures = proxy.requests.filter((r) => r.method !== 'GET' && r.status >= 300 && (r.path.split('?')[0] ?? '').endsWith(clusterPath)).map((r) => r.status);
    expect(clusterStatusFailures, 'failed RayCluster status writes').toEqual([]);
    // The pass that creates the head Pod counts it in the status it writes (from the create's answer): no second
    // status write (and RayJob mirror write) just for the Pod the cache shows a moment later.
    const firstClusterStatus = proxy.requests.find((r) => r.method === 'PUT' && r.status < 300 && (r.path.split('?')[0] ?? '').endsWith(clusterPath));
    expect((JSON.parse(firstClusterStatus?.body ?? '{}') as { status?: { head?: { podName?: string } } }).status?.head?.podName, 'the head Pod in the first RayCluster status').toMatch(new RegExp(`^${cluster}-head`));
    // shutdownAfterJobFinishes deletes the cluster after the verdict: a settled RayJob keeps its conditions, so the
    // deletion costs no status write (KubeRay writes no status in a terminal state).
    const deletedAt = proxy.requests.find((r) => r.method === 'DELETE' && (r.path.split('?')[0] ?? '').endsWith(`/rayclusters/${cluster}`))?.at;
    expect(deletedAt, 'the operator deleted the RayCluster').toBeDefined();
    const after = statusRequests.filter((r) => r.at >= (deletedAt ?? 0)).map((r) => JSON.stringify(statusOf(r.body).conditions));
    expect(after, 'RayJob status writes after the RayCluster was deleted').toEqual([]);
  });
});
