import { describe, expect, it } from 'vitest';
import {
  buildSubmitterJob, defaultDecisionSettings, kubeRaySubmitScript, submissionOptions, submitterArgs, type Container, type RayClusterSpec,
} from '../../src/index.ts';
import { makeRayJob } from '../rayjob/fixtures.ts';

const settings = defaultDecisionSettings;
const url = 'rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:8265';

function job(spec: Record<string, unknown> = {}, clusterSpec?: RayClusterSpec, attachOnly = false) {
  const rayJob = makeRayJob({ spec });
  const options = submissionOptions(rayJob);
  if (!options.ok) throw new Error(options.error);
  return buildSubmitterJob({ rayJob, dashboardURL: url, jobId: 'rayjob-sample-b9q4z', clusterName: 'rayjob-sample-x7k2p', clusterSpec: clusterSpec ?? rayJob.spec.rayClusterSpec, options: options.value, settings, attachOnly });
}
const container0 = (j: ReturnType<typeof job>): Container => j.spec?.template.spec?.containers?.[0] as Container;
const envOf = (c: Container) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
/** Addition H: built before any Ray status, attach-only comes from the submitter-state ConfigMap's key. */
const fromMark = { configMapKeyRef: { name: 'rayjob-sample-submitter-state', key: 'attach-only.rayjob-sample-x7k2p.rayjob-sample-b9q4z', optional: true } };
/** The head of the attempt's first submitter, from the same ConfigMap (the submitter refuses another head). */
const fromHeadRecord = { configMapKeyRef: { name: 'rayjob-sample-submitter-state', key: 'head-ip.rayjob-sample-x7k2p.rayjob-sample-b9q4z', optional: true } };

describe('the default submitter Job (our image)', () => {
  it('runs /submitter with the entrypoint as one argument and KubeRay\'s env, labels, owner and backoffLimit 2', () => {
    const j = job({ runtimeEnvYAML: 'env_vars:\n  counter_name: test_counter\n', metadata: { team: 'a' }, entrypointNumCpus: 1, entrypointResources: '{"R1": 2}' });
    expect(j.metadata).toMatchObject({ name: 'rayjob-sample', labels: { 'ray.io/originated-from-cr-name': 'rayjob-sample', 'ray.io/originated-from-crd': 'RayJob', 'app.kubernetes.io/created-by': 'kuberay-operator' } });
    expect(j.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'RayJob', controller: true });
    expect(j.spec?.backoffLimit).toBe(2);
    expect(j.spec?.template.metadata?.labels).toMatchObject({ 'app.kubernetes.io/created-by': 'kuberay-operator' });
    expect(j.spec?.template.spec?.restartPolicy).toBe('Never');
    const c = container0(j);
    expect(c).toMatchObject({ name: 'ray-job-submitter', image: settings.submitterImage, command: ['/submitter'] });
    expect(c.args).toEqual([
      '--runtime-env-json', '{"env_vars":{"counter_name":"test_counter"}}', '--metadata-json', '{"team":"a"}',
      '--entrypoint-num-cpus', '1', '--entrypoint-resources', '{"R1": 2}', '--', 'python /home/ray/samples/sample_code.py',
    ]);
    expect(envOf(c)).toEqual({ PYTHONUNBUFFERED: '1', RAY_DASHBOARD_ADDRESS: `http://${url}`, RAY_JOB_SUBMISSION_ID: 'rayjob-sample-b9q4z', RAYJOB_SUBMITTER_ATTACH_ONLY: fromMark, RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: fromHeadRecord });
    expect(c.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '200Mi' } });
  });

  it('carries a podFailurePolicy: final exit codes fail the Job, disruptions do not count (addition H)', () => {
    expect(job().spec?.podFailurePolicy).toEqual({
      rules: [
        { action: 'FailJob', onExitCodes: { containerName: 'ray-job-submitter', operator: 'In', values: [1, 3, 4, 5, 6] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      ],
    });
  });

  it.each([['default', undefined, 2], ['submitterConfig 88', 88, 88], ['submitterConfig 0', 0, 0]])('backoffLimit %s', (_n, limit, expected) => {
    expect(job(limit === undefined ? {} : { submitterConfig: { backoffLimit: limit } }).spec?.backoffLimit).toBe(expected);
  });

  it.each([
    'echo a; echo b', 'echo `date` && echo "$HOME"', "python -c 'print(\"héllo ✓\")'", "a && b || c | d > e",
  ])('C16: the entrypoint %j arrives as one argument, byte for byte', (entrypoint) => {
    const args = container0(job({ entrypoint })).args ?? [];
    expect(args.at(-1)).toBe(entrypoint);
    expect(args.at(-2)).toBe('--');
  });

  it('attachOnly: --attach-only before the entrypoint and RAYJOB_SUBMITTER_ATTACH_ONLY=true (addition H)', () => {
    const c = container0(job({}, undefined, true));
    expect(c.args).toEqual(['--attach-only', '--', 'python /home/ray/samples/sample_code.py']);
    expect(envOf(c)).toMatchObject({ RAYJOB_SUBMITTER_ATTACH_ONLY: 'true' });
    expect(envOf(container0(job())).RAYJOB_SUBMITTER_ATTACH_ONLY).toEqual(fromMark);
  });

  it('adds token-auth env from the cluster Secret, never the token itself', () => {
    const rayJob = makeRayJob();
    const spec = { ...rayJob.spec.rayClusterSpec, authOptions: { mode: 'token' } } as RayClusterSpec;
    expect(envOf(container0(job({}, spec)))).toMatchObject({ RAY_AUTH_MODE: 'token', RAY_AUTH_TOKEN: { secretKeyRef: { name: 'rayjob-sample-x7k2p', key: 'auth_token' } } });
  });
});

describe('a user submitter template', () => {
  const template = (container: Record<string, unknown>) => ({ submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'my-submitter', image: 'rayproject/ray:2.55.1', ...container }] } } });

  it('with a command is left alone, but gets the env (user duplicates replaced: ours)', () => {
    const c = container0(job(template({ command: ['user-command'], env: [{ name: 'RAY_JOB_SUBMISSION_ID', value: 'stale' }, { name: 'KEEP', value: '1' }] })));
    expect(c.command).toEqual(['user-command']);
    expect(c.args).toBeUndefined();
    expect(envOf(c)).toEqual({ KEEP: '1', PYTHONUNBUFFERED: '1', RAY_DASHBOARD_ADDRESS: `http://${url}`, RAY_JOB_SUBMISSION_ID: 'rayjob-sample-b9q4z', RAYJOB_SUBMITTER_ATTACH_ONLY: fromMark, RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: fromHeadRecord });
  });

  it('without a command runs KubeRay\'s script under bash -ce, with no podFailurePolicy', () => {
    const j = job(template({}));
    expect(container0(j).command).toEqual(['/bin/bash', '-ce', '--']);
    expect(container0(j).args?.[0]).toContain('ray job submit --address http://');
    expect(j.spec?.podFailurePolicy).toBeUndefined();
  });

  it('with a command and attachOnly gets RAYJOB_SUBMITTER_ATTACH_ONLY=true, its args untouched', () => {
    const c = container0(job(template({ command: ['/submitter'], args: ['--', 'python x.py'] }), undefined, true));
    expect(c.args).toEqual(['--', 'python x.py']);
    expect(envOf(c)).toMatchObject({ RAYJOB_SUBMITTER_ATTACH_ONLY: 'true' });
  });

  it('without a command and attachOnly runs KubeRay\'s script without its submit branch: an unknown ID exits 6', () => {
    const script = container0(job(template({}), undefined, true)).args?.[0] ?? '';
    expect(script).not.toContain('ray job submit');
    expect(script).toMatch(/if ! ray job status --address http:\/\/\S+ rayjob-sample-b9q4z >\/dev\/null 2>&1 ; then echo ".*Not submitting it again\." >&2 ; exit 6 ; fi ; ray job logs --address \S+ --follow rayjob-sample-b9q4z$/);
  });

  it('without a command and ENABLE_LOGIN_SHELL runs bash -cel', () => {
    const rayJob = makeRayJob({ spec: template({}) });
    const options = submissionOptions(rayJob);
    if (!options.ok) throw new Error(options.error);
    const j = buildSubmitterJob({ rayJob, dashboardURL: url, jobId: 'x', clusterName: 'c', clusterSpec: undefined, options: options.value, settings: { ...settings, enableLoginShell: true } });
    expect(container0(j).command).toEqual(['/bin/bash', '-cel', '--']);
  });

  it('running our image with restartPolicy Never gets the podFailurePolicy too', () => {
    const j = job(template({ image: 'ghcr.io/rayjob/submitter:v1.2.3', name: 'sub' }));
    expect(j.spec?.podFailurePolicy?.rules?.[0]).toMatchObject({ onExitCodes: { containerName: 'sub' } });
  });
});

describe('KubeRay\'s submit script (addition D: the entrypoint is wrapped, never spliced raw)', () => {
  it('matches KubeRay\'s token sequence around a bash -c wrapped entrypoint', () => {
    const script = kubeRaySubmitScript('http://test-url', 'test-job-id', { entrypoint: ` echo no quote 'single quote' "double quote" ` });
    expect(script).toBe(
      'until python -c "import urllib.request; r=urllib.request.urlopen(\'http://test-url/api/gcs_healthz\', timeout=10); exit(0 if b\'success\' in r.read() else 1)" >/dev/null 2>&1 ; ' +
        'do echo "Waiting for Ray Dashboard GCS to become healthy at http://test-url ..." ; sleep 2 ; done ; ' +
        'if ! ray job status --address http://test-url test-job-id >/dev/null 2>&1 ; then ' +
        'ray job submit --address http://test-url --no-wait --submission-id test-job-id -- bash -c ' +
        `'echo no quote '"'"'single quote'"'"' "double quote"' ; fi ; ray job logs --address http://test-url --follow test-job-id`,
    );
  });

  it('quotes JSON flags as Go does (keys sorted, <>& escaped by json.Marshal, then strconv.Quote) and prints cpus/gpus with six decimals', () => {
    const script = kubeRaySubmitScript('http://a', 'id', {
      entrypoint: 'x', runtimeEnv: { z: 1, a: { b: '<&>' } }, metadata: { k: 'v' }, entrypointNumCpus: 1, entrypointNumGpus: 0.5, entrypointResources: '{"R1": 2}',
    });
    expect(script).toContain(String.raw`--runtime-env-json "{\"a\":{\"b\":\"\\u003c\\u0026\\u003e\"},\"z\":1}" --metadata-json "{\"k\":\"v\"}" --submission-id id --entrypoint-num-cpus 1.000000 --entrypoint-num-gpus 0.500000 --entrypoint-resources "{\"R1\": 2}" -- bash -c x ;`);
  });
});

describe('submission options', () => {
  it.each([
    ['a bad runtimeEnvYAML', { runtimeEnvYAML: 'invalid_yaml_string' }, /^failed to unmarshal RuntimeEnvYAML: error unmarshaling JSON: .*it may hold secrets\)$/],
    ['metadata with Ray 2.5.0', { metadata: { a: 'b' }, rayClusterSpec: { headGroupSpec: { template: { spec: { containers: [{ name: 'h' }] } } }, rayVersion: '2.5.0' } }, /^the Ray version must be at least 2.6.0 to use the metadata field$/],
    ['metadata with an unparsable Ray version', { metadata: { a: 'b' }, rayClusterSpec: { headGroupSpec: { template: { spec: { containers: [{ name: 'h' }] } } }, rayVersion: 'not-a-version' } }, /^failed to parse Ray version/],
  ])('%s is an error naming the problem', (_n, spec, pattern) => {
    const r = submissionOptions(makeRayJob({ spec }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(pattern);
  });

  it('metadata without a rayVersion is fine (clusterSelector mode)', () => {
    const r = submissionOptions(makeRayJob({ spec: { metadata: { a: 'b' }, clusterSelector: { 'ray.io/cluster': 'c' }, rayClusterSpec: undefined } }));
    expect(r.ok && r.value.metadata).toEqual({ a: 'b' });
  });

  it('our args omit zero cpus/gpus', () => {
    expect(submitterArgs({ entrypoint: 'x', entrypointNumCpus: undefined })).toEqual(['--', 'x']);
  });
});
