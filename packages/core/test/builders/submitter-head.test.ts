/**
 * The head of an attempt's first K8sJobMode submitter: every container that may submit reads its recorded IP from
 * the submitter-state ConfigMap (optional), so a pod started after the head was replaced refuses to submit.
 */
import { describe, expect, it } from 'vitest';
import {
  buildRayCluster, currentHeadIP, submitterStateKey, SubmitterEnv,
  type Container, type EnvVar, type Pod, type RayCluster,
} from '../../src/index.ts';
import { makeRayJob } from '../rayjob/fixtures.ts';
import { CLUSTER, JOB_ID, settings, submitterJobFor } from './submitter-fixtures.ts';

const fromRecord: EnvVar = {
  name: 'RAYJOB_SUBMITTER_EXPECTED_HEAD_IP',
  valueFrom: { configMapKeyRef: { name: 'rayjob-sample-submitter-state', key: `head-ip.${CLUSTER}.${JOB_ID}`, optional: true } },
};
const headEnv = (c: Container | undefined) => (c?.env ?? []).filter((e) => e.name === SubmitterEnv.expectedHeadIp);

function k8sJobContainers(spec: Record<string, unknown>, attachOnly: boolean): Container[] {
  return submitterJobFor(spec, attachOnly).spec?.template.spec?.containers ?? [];
}

const ourImageTemplate = { submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'sub', image: settings.submitterImage, command: ['/submitter'], args: ['--', 'python x.py'] }, { name: 'proxy', image: 'envoy' }] } } };
const rayImageTemplate = { submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'sub', image: 'rayproject/ray:2.55.1' }] } } };

describe('RAYJOB_SUBMITTER_EXPECTED_HEAD_IP in the submitter containers', () => {
  it.each([
    { name: 'the K8sJobMode Job (our image)', spec: {} },
    { name: 'a user template\'s container 0 running our image', spec: ourImageTemplate },
    { name: 'a user template\'s container 0 running KubeRay\'s script', spec: rayImageTemplate },
  ])('$name: from the head-ip key (optional), whether built attach-only or not', ({ spec }) => {
    expect(headEnv(k8sJobContainers(spec, false)[0])).toEqual([fromRecord]);
    expect(headEnv(k8sJobContainers(spec, true)[0])).toEqual([fromRecord]);
  });

  it('only container 0 of a user template gets it', () => {
    expect(headEnv(k8sJobContainers(ourImageTemplate, false)[1])).toEqual([]);
  });

  it('SidecarMode\'s sidecar does not (its head is never recreated)', () => {
    const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
    const containers = buildRayCluster(rayJob, CLUSTER, JOB_ID, settings, { entrypoint: 'x' }, false).spec?.headGroupSpec.template.spec?.containers ?? [];
    expect(containers.flatMap(headEnv)).toEqual([]);
  });

  it('the key is head-ip.<cluster>.<submission ID>, sanitised like the attach-only key, and differs from it', () => {
    expect(submitterStateKey('expectedHeadIp', CLUSTER, JOB_ID)).toBe(`head-ip.${CLUSTER}.${JOB_ID}`);
    expect(submitterStateKey('expectedHeadIp', 'c', 'a b')).toMatch(/^head-ip\.c\.a_b\.[0-9a-f]{8}$/);
    expect(submitterStateKey('expectedHeadIp', CLUSTER, JOB_ID)).not.toBe(submitterStateKey('attachOnly', CLUSTER, JOB_ID));
  });
});

const pod = (ip: string | undefined, extra: { deleting?: boolean; phase?: string } = {}): Pod =>
  ({ metadata: { name: 'h', ...(extra.deleting && { deletionTimestamp: '2026-01-01T00:00:00Z' }) }, status: { phase: extra.phase ?? 'Running', ...(ip && { podIP: ip }) } }) as Pod;
const cluster = (ip?: string): RayCluster => ({ metadata: { name: CLUSTER }, status: { state: 'ready', ...(ip && { head: { podIP: ip } }) } }) as RayCluster;

describe('the head IP to record', () => {
  it.each([
    { name: 'the live head pod\'s own IP wins over the cluster status', c: cluster('10.0.0.1'), pods: [pod('10.0.0.2')], ip: '10.0.0.2' },
    { name: 'a terminating head is not the head', c: cluster('10.0.0.1'), pods: [pod('10.0.0.1', { deleting: true }), pod('10.0.0.3')], ip: '10.0.0.3' },
    { name: 'no head pod observed: the cluster status', c: cluster('10.0.0.1'), pods: [], ip: '10.0.0.1' },
    { name: 'only a terminating head: the cluster status', c: cluster('10.0.0.1'), pods: [pod('10.0.0.1', { deleting: true })], ip: '10.0.0.1' },
    { name: 'a live head without an IP yet: unknown (the status may name its predecessor)', c: cluster('10.0.0.1'), pods: [pod(undefined, { phase: 'Pending' })], ip: undefined },
    { name: 'two live heads that disagree: unknown', c: cluster('10.0.0.1'), pods: [pod('10.0.0.2'), pod('10.0.0.3')], ip: undefined },
    { name: 'nothing known: unknown', c: cluster(), pods: [], ip: undefined },
    { name: 'no cluster: unknown', c: undefined, pods: undefined, ip: undefined },
  ])('$name', ({ c, pods, ip }) => {
    expect(currentHeadIP(c, pods)).toBe(ip);
  });
});
