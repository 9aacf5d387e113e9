// The CLI contract end to end: every container core's builders make for our image (K8sJobMode's Job, SidecarMode's
// sidecar, a user template that runs our image) is fed, args and env as the kubelet would pass them, into the
// submitter's real parser; the resulting config must say exactly what the RayJob asked for.
import {
  attachOnlyMarkOf, buildRayCluster, buildSubmitterJob, buildSubmitterStateConfigMap, DEFAULT_SUBMITTER_IMAGE, submissionOptions, SUBMITTER_ENTRY, type Container, type RayJob,
} from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import { loadConfig, type SubmitterConfig } from '../src/cli/load-config.ts';

const JOB_ID = 'rayjob-sample-b9q4z';
const DASHBOARD_URL = 'rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:8265';
const settings = { submitterImage: DEFAULT_SUBMITTER_IMAGE, enableLoginShell: false, featureGates: { sidecarSubmitterRestart: false } };

function rayJob(spec: Partial<RayJob['spec']> = {}): RayJob {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name: 'rayjob-sample', namespace: 'default', uid: 'u-1' },
    spec: {
      entrypoint: 'python -c "import ray; print(1)" && echo done; echo `date`',
      runtimeEnvYAML: 'pip: [requests]\nenv_vars:\n  A: "1"\n',
      metadata: { team: 'ml' },
      entrypointNumCpus: 0.5,
      entrypointNumGpus: 1,
      entrypointResources: '{"accelerator": 2}',
      rayClusterSpec: {
        rayVersion: '2.58.0',
        headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } },
        authOptions: { mode: 'token' },
      },
      ...spec,
    } as RayJob['spec'],
  };
}

/** ConfigMaps of the namespace by name: their data. */
type ConfigMaps = Record<string, Record<string, string>>;

/**
 * What the kubelet hands the process: args after the command's entry, env with Secret references resolved and
 * ConfigMap keys looked up (an optional missing key leaves the variable unset; a required one fails the start).
 */
function invocation(container: Container, configMaps: ConfigMaps): { argv: string[]; env: Record<string, string> } {
  expect(container.command).toEqual([SUBMITTER_ENTRY]);
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef as { name?: string; key?: string };
      env[e.name] = `secret:${ref.name}/${ref.key}`;
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef as { name?: string; key: string; optional?: boolean };
      const value = configMaps[ref.name ?? '']?.[ref.key];
      if (value !== undefined) env[e.name] = value;
      else if (ref.optional !== true) throw new Error(`CreateContainerConfigError: ConfigMap ${ref.name} key ${ref.key} is missing`);
    } else throw new Error(`the test resolves no ${JSON.stringify(e.valueFrom)}`);
  }
  return { argv: container.args ?? [], env };
}

function parse(container: Container, configMaps: ConfigMaps = {}): SubmitterConfig {
  const { argv, env } = invocation(container, configMaps);
  const loaded = loadConfig({ argv, env, writable: () => false });
  if (loaded.kind !== 'config') throw new Error(`the submitter refused the builder's container: ${JSON.stringify(loaded)}`);
  return loaded.config;
}

function k8sJobContainer(job: RayJob, attachOnly: boolean): Container {
  const options = submissionOptions(job);
  if (!options.ok) throw new Error(options.error);
  const built = buildSubmitterJob({
    rayJob: job, dashboardURL: DASHBOARD_URL, jobId: JOB_ID, clusterName: 'rayjob-sample-x7k2p',
    clusterSpec: job.spec.rayClusterSpec, options: options.value, settings, attachOnly,
  });
  return built.spec?.template.spec?.containers?.[0] as Container;
}

function sidecarContainer(job: RayJob, attachOnly: boolean): Container {
  const options = submissionOptions(job);
  if (!options.ok) throw new Error(options.error);
  const cluster = buildRayCluster({ ...job, spec: { ...job.spec, submissionMode: 'SidecarMode' } }, 'rayjob-sample-x7k2p', JOB_ID, settings, options.value, attachOnly);
  return cluster.spec?.headGroupSpec.template.spec?.containers?.at(-1) as Container;
}

const userTemplate = (args: string[]) => ({
  submitterPodTemplate: {
    spec: { restartPolicy: 'Never', containers: [{ name: 'mine', image: 'ghcr.io/rayjob/submitter:v1', command: [SUBMITTER_ENTRY], args }] },
  },
});

const expectedRequest = {
  entrypoint: 'python -c "import ray; print(1)" && echo done; echo `date`',
  runtime_env: { pip: ['requests'], env_vars: { A: '1' } },
  metadata: { team: 'ml' },
  entrypoint_num_cpus: 0.5,
  entrypoint_num_gpus: 1,
  entrypoint_resources: { accelerator: 2 },
};

describe('every submitter container core builds for our image parses into what the RayJob asked for', () => {
  it.each([
    { name: 'K8sJobMode Job', attachOnly: false, container: (j: RayJob, a: boolean) => k8sJobContainer(j, a), baseUrl: `http://${DASHBOARD_URL}`, source: 'RAY_DASHBOARD_ADDRESS' },
    { name: 'K8sJobMode Job, attach-only', attachOnly: true, container: (j: RayJob, a: boolean) => k8sJobContainer(j, a), baseUrl: `http://${DASHBOARD_URL}`, source: 'RAY_DASHBOARD_ADDRESS' },
    { name: 'SidecarMode sidecar', attachOnly: false, container: sidecarContainer, baseUrl: 'http://127.0.0.1:8265', source: 'RAY_DASHBOARD_ADDRESS' },
    { name: 'SidecarMode sidecar, attach-only', attachOnly: true, container: sidecarContainer, baseUrl: 'http://127.0.0.1:8265', source: 'RAY_DASHBOARD_ADDRESS' },
  ])('$name', ({ attachOnly, container, baseUrl, source }) => {
    const config = parse(container(rayJob(), attachOnly));
    expect(config).toMatchObject({ baseUrl, addressSource: source, submissionId: JOB_ID, attachOnly, noWait: false, token: 'secret:rayjob-sample-x7k2p/auth_token' });
    expect(config.request).toEqual(expectedRequest);
  });

  it.each([
    { name: 'a user template running our image with its own args', attachOnly: false },
    { name: 'a user template running our image, attach-only (it gets the env, its args stay)', attachOnly: true },
  ])('$name', ({ attachOnly }) => {
    const job = rayJob(userTemplate(['--no-wait', '--', 'python user.py']) as Partial<RayJob['spec']>);
    const config = parse(k8sJobContainer(job, attachOnly));
    expect(config).toMatchObject({ baseUrl: `http://${DASHBOARD_URL}`, submissionId: JOB_ID, attachOnly, noWait: true });
    expect(config.request).toEqual({ entrypoint: 'python user.py' });
  });

  it.each([
    { name: 'K8sJobMode Job', container: () => k8sJobContainer(rayJob(), false) },
    { name: 'SidecarMode sidecar', container: () => sidecarContainer(rayJob(), false) },
    { name: 'a user template running our image', container: () => k8sJobContainer(rayJob(userTemplate(['--', 'python user.py']) as Partial<RayJob['spec']>), false) },
  ])('$name, built before the job was seen: attach-only exactly when the operator has written the mark (addition H)', ({ container }) => {
    const job = rayJob();
    const written = buildSubmitterStateConfigMap(job, attachOnlyMarkOf(job, 'rayjob-sample-x7k2p', JOB_ID));
    const name = written.metadata.name ?? '';
    expect(parse(container()).attachOnly).toBe(false);
    expect(parse(container(), { [name]: {} }).attachOnly).toBe(false);
    expect(parse(container(), { [name]: { ...written.data } }).attachOnly).toBe(true);
    // Another attempt's mark (a retry of the RayJob) does not switch this one.
    const other = buildSubmitterStateConfigMap(job, attachOnlyMarkOf(job, 'rayjob-sample-other', 'rayjob-sample-other-id'));
    expect(parse(container(), { [name]: { ...other.data } }).attachOnly).toBe(false);
  });

  it('a RayJob with only an entrypoint gives a config with only an entrypoint (no flag is emitted empty)', () => {
    const job = rayJob({ runtimeEnvYAML: undefined, metadata: undefined, entrypointNumCpus: undefined, entrypointNumGpus: undefined, entrypointResources: undefined });
    expect(parse(k8sJobContainer(job, false)).request).toEqual({ entrypoint: expectedRequest.entrypoint });
  });
});
