import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  buildRayCluster, buildRayJobHeadService, buildSubmitRequest, dashboardURLFromService, defaultDecisionSettings, generatedName, headServiceIsCurrent,
  NAME_SUFFIX_ALPHABET, randomSuffix, sanitizeLabelValue, shellJoin, shellQuote, type Container,
} from '../../src/index.ts';
import { makeCluster, makeRayJob, seededRandom } from '../rayjob/fixtures.ts';

describe('names', () => {
  it('suffixes are 5 characters of KubeRay\'s alphabet, reproducible from the random source', () => {
    const a = randomSuffix(seededRandom(7));
    expect(a).toMatch(new RegExp(`^[${NAME_SUFFIX_ALPHABET}]{5}$`));
    expect(randomSuffix(seededRandom(7))).toBe(a);
    expect(randomSuffix(() => 0.999999999)).toBe('99999');
    expect(generatedName('job', () => 0)).toBe('job-bbbbb');
  });
  it.each([['a'.repeat(70), 'a'.repeat(63)], ['-x-', 'x'], ['ok', 'ok']])('label value %s is sanitized', (input, expected) => {
    expect(sanitizeLabelValue(input)).toBe(expected);
  });
});

describe('the RayCluster of an attempt', () => {
  it('copies the spec and carries the RayJob\'s labels and annotations plus provenance (K8sJobMode)', () => {
    const rayJob = makeRayJob({ metadata: { labels: { team: 'x' }, annotations: { note: 'y' } } });
    const c = buildRayCluster(rayJob, 'rayjob-sample-abcde', 'id', defaultDecisionSettings, undefined);
    expect(c.metadata.labels).toEqual({ team: 'x', 'ray.io/originated-from-cr-name': 'rayjob-sample', 'ray.io/originated-from-crd': 'RayJob', 'ray.io/job-submission-mode': 'K8sJobMode' });
    expect(c.metadata.annotations).toEqual({ note: 'y' });
    expect(c.spec).toEqual(rayJob.spec.rayClusterSpec);
    expect(c.spec).not.toBe(rayJob.spec.rayClusterSpec);
  });

  it('SidecarMode injects our submitter on 127.0.0.1 at the head\'s dashboard port, restartPolicy Never, head restart disabled', () => {
    const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
    rayJob.spec.rayClusterSpec!.headGroupSpec.template.spec!.containers![0]!.ports = [{ name: 'dashboard', containerPort: 9000 }];
    const c = buildRayCluster(rayJob, 'cl', 'the-id', defaultDecisionSettings, { entrypoint: 'echo hi; echo there' });
    const pod = c.spec!.headGroupSpec.template.spec!;
    expect(pod.restartPolicy).toBe('Never');
    expect(c.metadata.annotations).toEqual({ 'ray.io/disable-provisioned-head-restart': 'true' });
    const sidecar = pod.containers!.at(-1) as Container;
    expect(sidecar).toMatchObject({ name: 'ray-job-submitter', image: defaultDecisionSettings.submitterImage, command: ['/submitter'], args: ['--', 'echo hi; echo there'] });
    expect(sidecar.env).toContainEqual({ name: 'RAY_DASHBOARD_ADDRESS', value: 'http://127.0.0.1:9000' });
    expect(sidecar.env).toContainEqual({ name: 'RAY_JOB_SUBMISSION_ID', value: 'the-id' });
    expect(sidecar.restartPolicy).toBeUndefined();
  });

  it('SidecarMode with SidecarSubmitterRestart gives the sidecar restartPolicy OnFailure', () => {
    const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
    const c = buildRayCluster(rayJob, 'cl', 'id', { submitterImage: defaultDecisionSettings.submitterImage, featureGates: { sidecarSubmitterRestart: true } }, undefined);
    expect(c.spec!.headGroupSpec.template.spec!.containers!.at(-1)!.restartPolicy).toBe('OnFailure');
  });

  it('SidecarMode with attachOnly: the sidecar gets --attach-only and RAYJOB_SUBMITTER_ATTACH_ONLY=true (addition H)', () => {
    const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
    const c = buildRayCluster(rayJob, 'cl', 'id', defaultDecisionSettings, { entrypoint: 'x' }, true);
    const sidecar = c.spec!.headGroupSpec.template.spec!.containers!.at(-1) as Container;
    expect(sidecar.args).toEqual(['--attach-only', '--', 'x']);
    expect(sidecar.env).toContainEqual({ name: 'RAYJOB_SUBMITTER_ATTACH_ONLY', value: 'true' });
  });

  it('refuses to build without a cluster spec', () => {
    expect(() => buildRayCluster(makeRayJob({ spec: { rayClusterSpec: undefined } }), 'c', 'i', defaultDecisionSettings, undefined)).toThrow(/rayClusterSpec/);
  });
});

describe('services and URLs', () => {
  it('the RayJob head Service uses the head container ports (unnamed -> <port>-port), adds metrics, sorted, headless', () => {
    const cluster = makeCluster();
    cluster.spec!.headGroupSpec.template.spec!.containers![0]!.ports = [{ name: 'dashboard', containerPort: 8265 }, { containerPort: 6379 }];
    const svc = buildRayJobHeadService(makeRayJob(), cluster, false);
    expect(svc.spec?.ports?.map((p) => `${p.name}:${p.port}`)).toEqual(['6379-port:6379', 'dashboard:8265', 'metrics:8080']);
    expect(svc.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
    expect(svc.metadata.labels).toMatchObject({ 'ray.io/identifier': 'rayjob-sample-head', 'ray.io/node-type': 'head' });
    expect(headServiceIsCurrent(svc, cluster)).toBe(true);
  });
  it('default ports when the head declares none; a ClusterIP when the operator enables it; NodePort kept', () => {
    const cluster = makeCluster();
    cluster.spec!.headGroupSpec.template.spec!.containers![0]!.ports = [];
    cluster.spec!.headGroupSpec.serviceType = 'NodePort';
    const svc = buildRayJobHeadService(makeRayJob(), cluster, true);
    expect(svc.spec?.ports?.map((p) => p.name)).toEqual(['client', 'dashboard', 'gcs-server', 'metrics', 'serve']);
    expect(svc.spec?.type).toBe('NodePort');
    expect(svc.spec?.clusterIP).toBeUndefined();
  });
  it('dashboard URL from the port named dashboard, or an error', () => {
    expect(dashboardURLFromService({ metadata: { name: 's', namespace: 'ns' }, spec: { ports: [{ name: 'dashboard', port: 8265 }] } }, 'cluster.local')).toEqual({ ok: true, url: 's.ns.svc.cluster.local:8265' });
    expect(dashboardURLFromService({ metadata: { name: 's' }, spec: { ports: [] } }, 'x')).toEqual({ ok: false, error: 'dashboard port is not found' });
  });
});

describe('HTTPMode submit request', () => {
  it.each([['not JSON', '{R1', /not valid JSON/], ['not a map of numbers', '{"R1":"x"}', /must be a JSON object/]])('entrypointResources %s is an error', (_n, resources, pattern) => {
    const r = buildSubmitRequest('id', { entrypoint: 'x', entrypointResources: resources });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(pattern);
  });
  it('keeps the entrypoint untrimmed and omits empty fields', () => {
    expect(buildSubmitRequest('id', { entrypoint: '  x  ' })).toEqual({ ok: true, value: { entrypoint: '  x  ', submission_id: 'id' } });
  });
});

describe('shell quoting round-trips through a real shell', () => {
  it.each(["plain", "a b", "it's", 'semi;colon && `tick` $HOME "dq"', 'ünïcødé ✓', '', "'"])('%j', (s) => {
    expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(s)}`]).toString()).toBe(s);
  });
  it('joins several words like shlex.join', () => {
    const out = execFileSync('bash', ['-c', `for a in ${shellJoin(['python', '-c', 'print(1); print(2)'])}; do printf '[%s]' "$a"; done`]).toString();
    expect(out).toBe('[python][-c][print(1); print(2)]');
  });
});
