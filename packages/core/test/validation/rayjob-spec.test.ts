import { describe, expect, it } from 'vitest';
import { validateRayJob } from '../../src/validation/rayjob.ts';
import type { RayJobInput } from '../../src/schema/rayjob.ts';
import { defaultValidationSettings } from '../../src/validation/result.ts';
import { basicClusterSpec, gatesOff, gatesOn, rayJob } from './fixtures.ts';

// KubeRay's validation_test.go RayJob cases (reference §5.5), each with the exact message and event reason.
const SPEC = 'The RayJob spec is invalid: ';
type Spec = RayJobInput['spec'];
const cluster = basicClusterSpec();

const specCases: { name: string; spec: Spec; message: string | undefined }[] = [
  { name: 'neither rayClusterSpec nor clusterSelector', spec: {}, message: `${SPEC}one of RayClusterSpec or ClusterSelector must be set` },
  {
    name: 'suspend without shutdownAfterJobFinishes',
    spec: { suspend: true, rayClusterSpec: cluster },
    message: `${SPEC}a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended`,
  },
  { name: 'suspend with shutdownAfterJobFinishes', spec: { suspend: true, shutdownAfterJobFinishes: true, rayClusterSpec: cluster }, message: undefined },
  {
    name: 'suspend with clusterSelector',
    spec: { suspend: true, shutdownAfterJobFinishes: true, clusterSelector: { 'ray.io/cluster': 'c' } },
    message: `${SPEC}the ClusterSelector mode doesn't support the suspend operation`,
  },
  {
    name: 'runtimeEnvYAML that is a bare scalar',
    spec: { runtimeEnvYAML: 'invalid_yaml_string', rayClusterSpec: cluster },
    message:
      'failed to unmarshal RuntimeEnvYAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {} (the YAML is not repeated: it may hold secrets)',
  },
  { name: 'runtimeEnvYAML that is a map', spec: { runtimeEnvYAML: 'pip:\n  - requests\nenv_vars:\n  A: "1"\n', rayClusterSpec: cluster }, message: undefined },
  { name: 'backoffLimit -1', spec: { backoffLimit: -1, rayClusterSpec: cluster }, message: `${SPEC}backoffLimit must be a positive integer` },
  { name: 'backoffLimit 0 is accepted despite the wording', spec: { backoffLimit: 0, rayClusterSpec: cluster }, message: undefined },
  {
    name: 'InteractiveMode with backoffLimit 1',
    spec: { submissionMode: 'InteractiveMode', backoffLimit: 1, rayClusterSpec: cluster },
    message: `${SPEC}BackoffLimit is incompatible with InteractiveMode`,
  },
  { name: 'InteractiveMode with backoffLimit 0', spec: { submissionMode: 'InteractiveMode', backoffLimit: 0, rayClusterSpec: cluster }, message: undefined },
  { name: 'InteractiveMode with backoffLimit unset', spec: { submissionMode: 'InteractiveMode', rayClusterSpec: cluster }, message: undefined },
  {
    name: 'ttlSecondsAfterFinished > 0 without shutdown',
    spec: { ttlSecondsAfterFinished: 5, rayClusterSpec: cluster },
    message: `${SPEC}a RayJob with shutdownAfterJobFinishes set to false cannot have TTLSecondsAfterFinished`,
  },
  { name: 'ttlSecondsAfterFinished > 0 with shutdown', spec: { ttlSecondsAfterFinished: 5, shutdownAfterJobFinishes: true, rayClusterSpec: cluster }, message: undefined },
  {
    name: 'ttlSecondsAfterFinished < 0',
    spec: { ttlSecondsAfterFinished: -5, shutdownAfterJobFinishes: true, rayClusterSpec: cluster },
    message: `${SPEC}TTLSecondsAfterFinished must be a non-negative integer`,
  },
  { name: 'SidecarMode', spec: { submissionMode: 'SidecarMode', rayClusterSpec: cluster }, message: undefined },
  {
    name: 'SidecarMode with submitterPodTemplate',
    spec: { submissionMode: 'SidecarMode', rayClusterSpec: cluster, submitterPodTemplate: { spec: { containers: [{ name: 's' }] } } },
    message: "Currently, SidecarMode doesn't support SubmitterPodTemplate",
  },
  {
    name: 'SidecarMode with submitterConfig',
    spec: { submissionMode: 'SidecarMode', rayClusterSpec: cluster, submitterConfig: { backoffLimit: 1 } },
    message: "Currently, SidecarMode doesn't support SubmitterConfig",
  },
  {
    name: 'SidecarMode with head restartPolicy Always',
    spec: {
      submissionMode: 'SidecarMode',
      rayClusterSpec: basicClusterSpec({
        headGroupSpec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'ray-head' }] } } },
      }),
    },
    message: 'restartPolicy for head Pod should be Never or unset when using SidecarMode',
  },
  {
    name: 'SidecarMode with head restartPolicy Never',
    spec: {
      submissionMode: 'SidecarMode',
      rayClusterSpec: basicClusterSpec({ headGroupSpec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'ray-head' }] } } } }),
    },
    message: undefined,
  },
  {
    name: 'SidecarMode with clusterSelector',
    spec: { submissionMode: 'SidecarMode', clusterSelector: { 'ray.io/cluster': 'c' } },
    message: 'ClusterSelector is not supported in SidecarMode',
  },
  { name: 'clusterSelector {} counts as unset', spec: { clusterSelector: {} }, message: `${SPEC}one of RayClusterSpec or ClusterSelector must be set` },
  { name: 'clusterSelector with an empty cluster name', spec: { clusterSelector: { 'ray.io/cluster': '' } }, message: 'cluster name in ClusterSelector should not be empty' },
  { name: 'clusterSelector without the cluster key', spec: { clusterSelector: { other: 'x' } }, message: 'cluster name in ClusterSelector should not be empty' },
  { name: 'clusterSelector with a cluster name', spec: { clusterSelector: { 'ray.io/cluster': 'existing' } }, message: undefined },
  {
    name: 'clusterSelector with backoffLimit 1',
    spec: { clusterSelector: { 'ray.io/cluster': 'existing' }, backoffLimit: 1 },
    message: `${SPEC}BackoffLimit is incompatible with ClusterSelector mode`,
  },
  {
    name: 'K8s token auth',
    spec: { rayClusterSpec: basicClusterSpec({ authOptions: { enableK8sTokenAuth: true, mode: 'token' }, rayVersion: '2.55.0' }) },
    message: `${SPEC}K8s token auth mode is currently not supported for RayJob`,
  },
  { name: 'activeDeadlineSeconds 0', spec: { activeDeadlineSeconds: 0, rayClusterSpec: cluster }, message: `${SPEC}activeDeadlineSeconds must be a positive integer` },
  { name: 'activeDeadlineSeconds 10', spec: { activeDeadlineSeconds: 10, rayClusterSpec: cluster }, message: undefined },
  {
    name: 'head template without containers (wrapped cluster error)',
    spec: { rayClusterSpec: basicClusterSpec({ headGroupSpec: { template: { spec: { containers: [] } } } }) },
    message: `${SPEC}headGroupSpec should have at least one container`,
  },
  {
    name: 'token auth on an old rayVersion (wrapped cluster error)',
    spec: { rayClusterSpec: basicClusterSpec({ authOptions: { mode: 'token' }, rayVersion: '2.50.0' }) },
    message: `${SPEC}authOptions.mode is 'token' but minimum Ray version is 2.52.0, got 2.50.0`,
  },
];

describe('RayJob spec validation (InvalidRayJobSpec)', () => {
  it.each(specCases)('$name', ({ spec, message }) => {
    const result = validateRayJob(rayJob(spec), gatesOn);
    expect(result).toEqual(message === undefined ? { ok: true } : { ok: false, eventReason: 'InvalidRayJobSpec', message });
  });

  it('checks the first failing rule only (suspend before the missing cluster spec)', () => {
    expect(validateRayJob(rayJob({ suspend: true }), gatesOn)).toMatchObject({
      message: `${SPEC}a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended`,
    });
  });

  it('preRunningDeadlineSeconds <= 0 is rejected (the CRD minimum is 1; older objects may still carry 0)', () => {
    const job = rayJob({ rayClusterSpec: cluster });
    job.spec.preRunningDeadlineSeconds = 0;
    expect(validateRayJob(job, gatesOn)).toEqual({
      ok: false,
      eventReason: 'InvalidRayJobSpec',
      message: `${SPEC}preRunningDeadlineSeconds must be a positive integer`,
    });
  });

  it('worker-group suspend is rejected with the RayJobDeletionPolicy gate off', () => {
    const spec = basicClusterSpec();
    spec.workerGroupSpecs = [{ ...spec.workerGroupSpecs![0]!, suspend: true }];
    expect(validateRayJob(rayJob({ rayClusterSpec: spec }), gatesOff)).toMatchObject({
      message: `${SPEC}worker group small-group can be suspended only when the RayJobDeletionPolicy feature gate is enabled`,
    });
    expect(validateRayJob(rayJob({ rayClusterSpec: spec }), gatesOn)).toEqual({ ok: true });
  });
});

describe('default validation settings', () => {
  it('match KubeRay: RayJobDeletionPolicy on, SidecarSubmitterRestart off', () => {
    expect(defaultValidationSettings.featureGates).toEqual({ rayJobDeletionPolicy: true, sidecarSubmitterRestart: false });
    const job = rayJob({ rayClusterSpec: cluster, deletionStrategy: { deletionRules: [{ policy: 'DeleteCluster', condition: { jobStatus: 'FAILED' } }] } });
    expect(validateRayJob(job, defaultValidationSettings)).toEqual({ ok: true });
  });
});

describe('RayJob status validation (InvalidRayJobStatus)', () => {
  const WAITING = 'The RayJob status is invalid: JobDeploymentStatus cannot be `Waiting` when SubmissionMode is not InteractiveMode';
  it.each([
    { name: 'Waiting in K8sJobMode', mode: 'K8sJobMode' as const, status: 'Waiting' as const, message: WAITING },
    { name: 'Waiting in HTTPMode', mode: 'HTTPMode' as const, status: 'Waiting' as const, message: WAITING },
    { name: 'Waiting in InteractiveMode', mode: 'InteractiveMode' as const, status: 'Waiting' as const, message: undefined },
    { name: 'Running in K8sJobMode', mode: 'K8sJobMode' as const, status: 'Running' as const, message: undefined },
  ])('$name', ({ mode, status, message }) => {
    const job = rayJob({ submissionMode: mode, rayClusterSpec: cluster }, 'my-job', { status: { jobDeploymentStatus: status } });
    expect(validateRayJob(job, gatesOn)).toEqual(
      message === undefined ? { ok: true } : { ok: false, eventReason: 'InvalidRayJobStatus', message },
    );
  });
});

describe('RayJob metadata validation (InvalidRayJobMetadata)', () => {
  const DNS1035 =
    "The RayJob metadata is invalid: RayJob name should be a valid DNS1035 label: [a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')]";
  it.each([
    { name: 'a 48-character name', jobName: 'a'.repeat(48), message: 'The RayJob metadata is invalid: RayJob name should be no more than 47 characters' },
    { name: 'a 47-digit name', jobName: '1'.repeat(47), message: DNS1035 },
    { name: 'a name with a dot', jobName: 'invalid.name', message: DNS1035 },
    { name: 'an upper-case name', jobName: 'MyJob', message: DNS1035 },
    { name: 'a 47-letter name', jobName: 'a'.repeat(47), message: undefined },
  ])('$name', ({ jobName, message }) => {
    expect(validateRayJob(rayJob({ rayClusterSpec: cluster }, jobName), gatesOn)).toEqual(
      message === undefined ? { ok: true } : { ok: false, eventReason: 'InvalidRayJobMetadata', message },
    );
  });

  it('metadata is checked before the spec and the spec before the status', () => {
    const bad = rayJob({}, 'Bad', { status: { jobDeploymentStatus: 'Waiting' } });
    expect(validateRayJob(bad, gatesOn)).toMatchObject({ eventReason: 'InvalidRayJobMetadata' });
    const badSpec = rayJob({}, 'ok', { status: { jobDeploymentStatus: 'Waiting' } });
    expect(validateRayJob(badSpec, gatesOn)).toMatchObject({ eventReason: 'InvalidRayJobSpec' });
  });
});
