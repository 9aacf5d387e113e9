// The caches keep exactly what the controllers read (src/runtime/cached-fields.ts), and it cannot rot: the operator
// runs its reconcile paths (RayJobs in every submission mode on our RayCluster controller, a worker group, a
// failing job, deletion) over full cached objects seen through recording proxies, and the record is checked
// against the allow-lists both ways: a field read but dropped fails, a field kept but never read fails, and an
// object read whole (spread, JSON, clone: as a write-back would) must be kept whole.
import type { KeepRule } from '@rayjob/kube-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedFields } from '../src/runtime/cached-fields.ts';
import { api, eventually, type Json } from './support/api.ts';
import { keptPaths, recordCacheReads, ruleAt, type CacheReads, type FieldPath } from './support/cache-reads.ts';
import { getRayJob, rayJobManifest } from './support/env.ts';
import { startRayClusterEnv, type RayClusterEnv } from './support/raycluster-env.ts';

const plurals = Object.keys(cachedFields);
const informerFields = ['name', 'namespace', 'resourceVersion'];
/**
 * Reads on paths these scenarios do not always reach, each with its reader: kept, and counted as read. A field
 * belongs here only when a reader of it exists that a sandbox run cannot reach deterministically.
 */
const conditionalReads: Record<string, Array<{ path: string; reader: string }>> = {
  pods: [
    { path: 'status.containerStatuses.[].lastState.terminated', reader: "core decision/submitter-state.ts and running/evidence.ts: a restarted container's last exit" },
    { path: 'spec.restartPolicy', reader: 'core raycluster/pod-health.ts and plan-multi-host.ts: a Ray container ended under restartPolicy Never' },
    { path: 'metadata.annotations', reader: "core raycluster/plan.ts: upgradeStrategy Recreate compares the head pod's recorded hash and operator version" },
  ],
  jobs: [{ path: 'metadata.deletionTimestamp', reader: 'core decision/submitter-state.ts and states/release.ts: a submitter Job already being deleted' }],
};
let recorder: CacheReads;
let env: RayClusterEnv;
beforeAll(async () => {
  recorder = recordCacheReads(plurals);
  env = await startRayClusterEnv({ withRayJobs: true, cacheTransforms: recorder.transforms });
}, 120_000);
afterAll(async () => {
  await env?.stop();
  recorder?.restore();
}, 60_000);

function rayJob(name: string, spec: Json, workers = false): Json {
  const manifest = rayJobManifest(name, { shutdownAfterJobFinishes: true, ...spec }, workers);
  return { ...manifest, metadata: { ...manifest.metadata, labels: { team: 'a' }, annotations: { note: 'x' } } };
}

const show = (p: FieldPath): string => p.join('.');
const getJob = (name: string): Promise<Json> => getRayJob(env.url, name);
const waitFor = (name: string, statuses: string[], ms = 150_000) =>
  eventually(`RayJob ${name} ${statuses.join('|')}`, async () => {
    const j = await getJob(name);
    return statuses.includes(j?.status?.jobDeploymentStatus) ? j : undefined;
  }, ms, 250);

describe('cached fields', () => {
  it('the controllers read every field the caches keep, and no other', async () => {
    const create = async (body: Json) => expect((await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', body)).status).toBe(201);
    await create(rayJob('cf-k8s', {}, true));
    await create(rayJob('cf-http', { submissionMode: 'HTTPMode' }));
    await create(rayJob('cf-sidecar', { submissionMode: 'SidecarMode' }));
    await create(rayJob('cf-fail', { entrypoint: 'exit 3', backoffLimit: 0 }));
    for (const name of ['cf-k8s', 'cf-http', 'cf-sidecar']) expect((await waitFor(name, ['Complete'])).status.jobStatus).toBe('SUCCEEDED');
    await waitFor('cf-fail', ['Failed', 'Complete']);
    // Deletion: the finalizer's path reads the cluster and Job once more.
    await api(env.url, 'DELETE', '/apis/ray.io/v1/namespaces/default/rayjobs/cf-k8s');
    await eventually('cf-k8s to be gone', async () => (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/cf-k8s')).status === 404, 60_000);

    const problems: string[] = [];
    for (const plural of plurals) {
      const rule = cachedFields[plural]!;
      expect(recorder.seen(plural), `${plural} reached the cache`).toBeGreaterThan(0);
      const reads = recorder.reads(plural);
      for (const c of conditionalReads[plural] ?? []) if (ruleAt(rule, c.path.split('.')) === false) problems.push(`${plural}: drops ${c.path}, which ${c.reader} reads`);
      // A field read but dropped: the controller would see undefined in production.
      for (const r of reads) if (ruleAt(rule, r.path) === false) problems.push(`${plural}: reads ${show(r.path)}, which the cache drops`);
      // Read whole (spread, JSON, clone): every key under it must be kept.
      for (const r of reads.filter((x) => x.whole)) {
        const at = ruleAt(rule, r.path);
        const keepsAll = at === true || (typeof at === 'object' && !Array.isArray(at) && (at as Record<string, KeepRule>)['*'] !== undefined);
        if (!keepsAll) problems.push(`${plural}: reads ${show(r.path) || '(the object)'} whole, which the cache trims`);
      }
      // The informer's own reads (keys; the relist compares resourceVersions): kept, read or not.
      for (const field of informerFields) if (ruleAt(rule, ['metadata', field]) === false) problems.push(`${plural}: drops metadata.${field}, which the informer needs`);
      // A field kept but never read: the cache holds what nobody looks at.
      for (const { path, rule: r } of keptPaths(rule)) {
        if (path.length === 2 && path[0] === 'metadata' && informerFields.includes(path[1]!)) continue;
        if ((conditionalReads[plural] ?? []).some((c) => `${show(path)}.`.startsWith(`${c.path}.`) || `${c.path}.`.startsWith(`${show(path)}.`))) continue;
        const under = reads.filter((x) => show(x.path) === show(path) || (x.path.length > path.length && show(x.path.slice(0, path.length)) === show(path)));
        if (path.at(-1) === '*') {
          const map = path.slice(0, -1);
          if (!reads.some((x) => show(x.path) === show(map) && x.whole)) problems.push(`${plural}: keeps every key of ${show(map)}, which nothing enumerates`);
          continue;
        }
        if (under.length === 0) problems.push(`${plural}: keeps ${show(path)}, which nothing reads`);
        // Kept whole: an object read only in parts should list those parts.
        else if (r === true && under.some((x) => x.object) && !under.some((x) => x.whole && show(x.path) === show(path))) problems.push(`${plural}: keeps ${show(path)} whole, but only parts of it are read: ${[...new Set(under.map((x) => show(x.path)))].slice(0, 12).join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
