/**
 * Addition H for submitters built before any Ray status: attach-only is read from a key of the RayJob's
 * submitter-state ConfigMap at each container start, so a pod the Job controller retries, or the sidecar of a
 * replacement head, never submits a job that was already seen.
 */
import { describe, expect, it } from 'vitest';
import {
  attachOnlyMarkKey, buildRayCluster, buildSubmitterStateConfigMap, submitterStateConfigMapName,
  type Container, type EnvVar,
} from '../../src/index.ts';
import { makeRayJob } from '../rayjob/fixtures.ts';
import { CLUSTER, JOB_ID, settings, submitterJobFor } from './submitter-fixtures.ts';

const fromMark: EnvVar = {
  name: 'RAYJOB_SUBMITTER_ATTACH_ONLY',
  valueFrom: { configMapKeyRef: { name: 'rayjob-sample-submitter-state', key: `attach-only.${CLUSTER}.${JOB_ID}`, optional: true } },
};
const literal: EnvVar = { name: 'RAYJOB_SUBMITTER_ATTACH_ONLY', value: 'true' };
const attachOnlyEnv = (c: Container | undefined) => (c?.env ?? []).filter((e) => e.name === 'RAYJOB_SUBMITTER_ATTACH_ONLY');

function k8sJobContainer(spec: Record<string, unknown>, attachOnly: boolean): Container | undefined {
  return submitterJobFor(spec, attachOnly).spec?.template.spec?.containers?.[0];
}

function sidecar(attachOnly: boolean): Container | undefined {
  const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
  return buildRayCluster(rayJob, CLUSTER, JOB_ID, settings, { entrypoint: 'x' }, attachOnly).spec?.headGroupSpec.template.spec?.containers?.at(-1);
}

const ourImageTemplate = { submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'sub', image: settings.submitterImage, command: ['/submitter'], args: ['--', 'python x.py'] }] } } };
const rayImageTemplate = { submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'sub', image: 'rayproject/ray:2.55.1' }] } } };

describe('the attach-only env of a submitter, by when it was built', () => {
  it.each([
    { name: 'the first K8sJobMode Job (our image)', build: (a: boolean) => k8sJobContainer({}, a) },
    { name: 'the SidecarMode sidecar in the head pod template', build: sidecar },
    { name: 'a user template\'s container 0 running our image', build: (a: boolean) => k8sJobContainer(ourImageTemplate, a) },
    { name: 'a user template\'s container 0 running KubeRay\'s script', build: (a: boolean) => k8sJobContainer(rayImageTemplate, a) },
  ])('$name: from the ConfigMap key (optional) before any status, the literal true once seen', ({ build }) => {
    expect(attachOnlyEnv(build(false))).toEqual([fromMark]);
    expect(attachOnlyEnv(build(true))).toEqual([literal]);
  });

  it('KubeRay\'s script, not attach-only when built, checks the env before its submit branch', () => {
    const script = k8sJobContainer(rayImageTemplate, false)?.args?.[0] ?? '';
    expect(script).toMatch(/; then case "\$\{RAYJOB_SUBMITTER_ATTACH_ONLY:-\}" in \[Tt\]\[Rr\]\[Uu\]\[Ee\]\|1\) echo ".*Not submitting it again\." >&2 ; exit 6 ; ;; esac ; ray job submit /);
  });
});

describe('the submitter-state ConfigMap', () => {
  it('is <rayjob>-submitter-state, labelled like the RayJob\'s other children and owned by it (garbage-collected)', () => {
    const rayJob = makeRayJob();
    const key = attachOnlyMarkKey(CLUSTER, JOB_ID);
    expect(buildSubmitterStateConfigMap(rayJob, { configMap: submitterStateConfigMapName('rayjob-sample'), key })).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'rayjob-sample-submitter-state',
        namespace: 'default',
        labels: { 'ray.io/originated-from-cr-name': 'rayjob-sample', 'ray.io/originated-from-crd': 'RayJob', 'app.kubernetes.io/created-by': 'kuberay-operator' },
        ownerReferences: [expect.objectContaining({ kind: 'RayJob', name: 'rayjob-sample', controller: true })],
      },
      data: { [key]: 'true' },
    });
  });

  it('keeps its name within 253 characters', () => {
    expect(submitterStateConfigMapName('a'.repeat(253))).toHaveLength(253);
  });

  it.each([
    ['a plain attempt', 'c-1', 'id-1', 'attach-only.c-1.id-1'],
    ['a submission ID with characters a key cannot hold', 'c', 'my job/1', /^attach-only\.c\.my_job_1\.[0-9a-f]{8}$/],
    ['a very long submission ID', 'c', 'x'.repeat(400), /^attach-only\.c\.x+\.[0-9a-f]{8}$/],
  ])('one valid key per attempt: %s', (_n, cluster, jobId, expected) => {
    const key = attachOnlyMarkKey(cluster, jobId);
    if (typeof expected === 'string') expect(key).toBe(expected);
    else expect(key).toMatch(expected);
    expect(key.length).toBeLessThanOrEqual(253);
    expect(key).toMatch(/^[-._a-zA-Z0-9]+$/);
  });

  it('gives attempts that differ only in characters a key cannot hold different keys', () => {
    expect(attachOnlyMarkKey('c', 'a b')).not.toBe(attachOnlyMarkKey('c', 'a/b'));
    expect(attachOnlyMarkKey('c', 'a b')).not.toBe(attachOnlyMarkKey('c', 'a_b'));
  });
});
