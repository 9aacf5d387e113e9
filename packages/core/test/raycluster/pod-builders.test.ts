import { describe, expect, it } from 'vitest';
import {
  buildHeadPod,
  buildWorkerPod,
  completeRayStartParams,
  rayClusterSettingsFromEnv,
  rayStartCommand,
  type Container,
  type EnvVar,
  type RayClusterInput,
} from '../../src/index.ts';
import { sampleCluster, settings } from './fixtures.ts';

const ray = (pod: { spec?: { containers: Container[] } }) => pod.spec?.containers[0] as Container & Record<string, unknown>;
const envMap = (env: EnvVar[] | undefined) => Object.fromEntries((env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
const head = (c = sampleCluster()) => buildHeadPod(c, settings, { specHash: 'h' });
const worker = (c = sampleCluster(), index = 0) => buildWorkerPod(c, c.spec.workerGroupSpecs![0]!, settings, index);

describe('the reference worked example (§4.6)', () => {
  it('head: the generated ray start line, with limits turned into --num-cpus and --memory', () => {
    const container = ray(head());
    expect(container.command).toEqual(['/bin/bash', '-c', '--']);
    expect(container.args).toEqual([
      'ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ray start --head  --block  --dashboard-agent-listen-port=52365  --dashboard-host=0.0.0.0  --memory=5368709120  --metrics-export-port=8080  --num-cpus=1 ',
    ]);
  });
  it('worker: the head address is the cluster\'s own head Service FQDN', () => {
    expect(ray(worker()).args).toEqual([
      'ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ray start  --address=rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:6379  --block  --dashboard-agent-listen-port=52365  --metrics-export-port=8080  --num-cpus=1 ',
    ]);
  });
  it('head env tail, in KubeRay\'s order', () => {
    const names = (ray(head()).env ?? []).map((e) => e.name);
    expect(names).toEqual([
      'RAY_CLUSTER_NAME', 'RAY_CLUSTER_NAMESPACE', 'RAY_CLOUD_INSTANCE_ID', 'RAY_NODE_TYPE_NAME', 'KUBERAY_GEN_RAY_START_CMD',
      'RAY_PORT', 'RAY_ADDRESS', 'RAY_USAGE_STATS_KUBERAY_IN_USE', 'RAY_USAGE_STATS_EXTRA_TAGS', 'RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE',
    ]);
    const env = envMap(ray(head()).env);
    expect(env).toMatchObject({
      RAY_PORT: '6379',
      RAY_ADDRESS: '127.0.0.1:6379',
      RAY_USAGE_STATS_KUBERAY_IN_USE: '1',
      RAY_USAGE_STATS_EXTRA_TAGS: 'kuberay_version=nightly;kuberay_crd=RayJob',
      RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE: '1',
      RAY_CLUSTER_NAME: { fieldRef: { fieldPath: "metadata.labels['ray.io/cluster']" } },
    });
    expect(env.KUBERAY_GEN_RAY_START_CMD).toMatch(/^ray start --head {2}--block/);
  });
  it('worker env adds FQ_RAY_IP and RAY_IP first and points RAY_ADDRESS at the head', () => {
    const env = ray(worker()).env ?? [];
    expect(env.slice(0, 2)).toEqual([
      { name: 'FQ_RAY_IP', value: 'rayjob-sample-x7k2p-head-svc.default.svc.cluster.local' },
      { name: 'RAY_IP', value: 'rayjob-sample-x7k2p-head-svc' },
    ]);
    expect(envMap(env).RAY_ADDRESS).toBe('rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:6379');
    expect(envMap(env).RAY_USAGE_STATS_EXTRA_TAGS).toBeUndefined();
  });
  it('rayVersion 2.52 gets exec probes (head checks raylet and GCS); 2.53+ one HTTP check', () => {
    const liveness = ray(head()).livenessProbe as Record<string, unknown>;
    expect(liveness).toMatchObject({ initialDelaySeconds: 30, timeoutSeconds: 5, periodSeconds: 5, successThreshold: 1, failureThreshold: 120 });
    expect(liveness.exec).toEqual({
      command: ['bash', '-c', 'wget --tries 1 -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz | grep success && wget --tries 1 -T 10 -q -O- http://localhost:8265/api/gcs_healthz | grep success'],
    });
    expect(ray(worker()).readinessProbe).toMatchObject({ initialDelaySeconds: 10, timeoutSeconds: 2, failureThreshold: 10 });
    const modern = sampleCluster((c) => { c.spec.rayVersion = '2.55.1'; });
    expect(ray(head(modern)).readinessProbe).toMatchObject({ httpGet: { path: '/api/healthz', port: 52365 } });
    const userProbe = sampleCluster((c) => { (c.spec.headGroupSpec.template.spec!.containers![0] as Record<string, unknown>).livenessProbe = { tcpSocket: { port: 1 } }; });
    expect(ray(head(userProbe)).livenessProbe).toEqual({ tcpSocket: { port: 1 } });
    expect(ray(buildHeadPod(sampleCluster(), { ...settings, enableProbesInjection: false }, { specHash: 'h' })).livenessProbe).toBeUndefined();
  });
});

describe('pod metadata', () => {
  it('head: generateName, KubeRay labels over the user\'s except the three protected ones, annotations, owner', () => {
    const c = sampleCluster((c) => {
      c.spec.headGroupSpec.template.metadata = { labels: { team: 'a', 'ray.io/cluster': 'hijack', 'app.kubernetes.io/name': 'mine' } };
      c.spec.headGroupSpec.labels = { team: 'b' };
      c.metadata.annotations = { 'ray.io/overwrite-container-cmd': 'TRUE' };
    });
    const pod = head(c);
    expect(pod.metadata.generateName).toBe('rayjob-sample-x7k2p-head-');
    expect(pod.metadata.namespace).toBe('default');
    expect(pod.metadata.labels).toEqual({
      'ray.io/is-ray-node': 'yes', 'ray.io/cluster': 'rayjob-sample-x7k2p', 'ray.io/node-type': 'head', 'ray.io/group': 'headgroup',
      'ray.io/identifier': 'rayjob-sample-x7k2p-head', 'app.kubernetes.io/name': 'mine', 'app.kubernetes.io/created-by': 'kuberay-operator', team: 'b',
    });
    expect(pod.metadata.annotations).toEqual({
      'ray.io/overwrite-container-cmd': 'true', 'ray.io/ft-enabled': 'false', 'ray.io/upgrade-strategy-recreate-hash': 'h', 'ray.io/kuberay-version': 'nightly',
    });
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'ray.io/v1', kind: 'RayCluster', name: 'rayjob-sample-x7k2p', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
    expect(buildHeadPod(c, { ...settings, deterministicHeadPodName: true }, { specHash: 'h' }).metadata.name).toBe('rayjob-sample-x7k2p-head');
  });
  it('worker: generateName from cluster and group (50 chars, lowercased), replica index label, no template name', () => {
    const c = sampleCluster((c) => {
      c.metadata.name = 'A'.repeat(45);
      c.spec.workerGroupSpecs![0]!.template.metadata = { name: 'fixed' };
    });
    const pod = worker(c, 3);
    expect(pod.metadata.generateName).toBe(`${'a'.repeat(45)}-smal-worker-`);
    expect(pod.metadata.name).toBeUndefined();
    expect(pod.metadata.labels?.['ray.io/worker-group-replica-index']).toBe('3');
    const noGate = buildWorkerPod(c, c.spec.workerGroupSpecs![0]!, { ...settings, featureGates: { ...settings.featureGates, rayMultiHostIndexing: false } }, 3);
    expect(noGate.metadata.labels?.['ray.io/worker-group-replica-index']).toBeUndefined();
  });
  it('identifier label keeps the last 63 characters', () => {
    const name = `x${'a'.repeat(52)}`;
    const pod = head(sampleCluster((c) => { c.metadata.name = name; }));
    expect(pod.metadata.labels?.['ray.io/identifier']).toBe(`${name}-head`.slice(-63));
  });
});

describe('pod spec additions', () => {
  it('metrics port, shm volume sized by the memory limit, user volumes kept', () => {
    const pod = head();
    expect(ray(pod).ports).toContainEqual({ name: 'metrics', containerPort: 8080 });
    expect(pod.spec?.volumes).toEqual([{ name: 'shared-mem', emptyDir: { medium: 'Memory', sizeLimit: '5Gi' } }]);
    expect(ray(pod).volumeMounts).toEqual([{ mountPath: '/dev/shm', name: 'shared-mem' }]);
    expect(worker().spec?.volumes).toEqual([{ name: 'shared-mem', emptyDir: { medium: 'Memory' } }]);
  });
  it.each([
    ['plasma-directory set', (c: RayClusterInput) => { c.spec.headGroupSpec.rayStartParams = { 'plasma-directory': '/x' }; }],
    ['/dev/shm already mounted', (c: RayClusterInput) => {
      c.spec.headGroupSpec.template.spec!.containers![0]!.volumeMounts = [{ name: 'mine', mountPath: '/dev/shm' }];
    }],
  ])('no shm volume when %s', (_label, edit) => {
    expect(head(sampleCluster(edit)).spec?.volumes ?? []).not.toContainEqual(expect.objectContaining({ name: 'shared-mem' }));
  });
  it('worker gets wait-gcs-ready after user init containers, with the Ray container\'s user env; every init container learns FQ_RAY_IP', () => {
    const c = sampleCluster((c) => {
      const spec = c.spec.workerGroupSpecs![0]!.template.spec!;
      spec.initContainers = [{ name: 'user-init', image: 'busybox' }];
      spec.containers![0]!.env = [{ name: 'MY', value: '1' }];
    });
    const init = worker(c).spec?.initContainers ?? [];
    expect(init.map((i) => i.name)).toEqual(['user-init', 'wait-gcs-ready']);
    expect(init[0]?.env).toEqual([
      { name: 'FQ_RAY_IP', value: 'rayjob-sample-x7k2p-head-svc.default.svc.cluster.local' },
      { name: 'RAY_IP', value: 'rayjob-sample-x7k2p-head-svc' },
    ]);
    const wait = init[1]!;
    expect(wait.image).toBe('rayproject/ray:2.52.0');
    expect(wait.command).toEqual(['/bin/bash', '-c', '--']);
    expect(wait.args?.[0]).toContain('ray health-check --address rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:6379');
    expect(wait.env?.map((e) => e.name)).toEqual(['MY', 'FQ_RAY_IP', 'RAY_IP']);
    expect(wait.resources).toEqual({ limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    expect(buildWorkerPod(c, c.spec.workerGroupSpecs![0]!, { ...settings, enableInitContainerInjection: false }, 0).spec?.initContainers?.map((i) => i.name)).toEqual(['user-init']);
  });
  it.each([
    ['a user command without ray start runs before the generated line', ['sleep 1'], undefined, false, /^ sleep 1 {2}&& ulimit -n .*; ray start --head/],
    ['a user command with ray start is kept', ['bash', '-c'], ['ray start --head --block'], false, /^ray start --head --block$/],
    ['the overwrite annotation keeps the user command', ['echo'], ['hi'], true, /^hi$/],
  ])('%s', (_label, command, args, overwrite, expected) => {
    const c = sampleCluster((c) => {
      const container = c.spec.headGroupSpec.template.spec!.containers![0]!;
      container.command = command;
      if (args) container.args = args;
      if (overwrite) c.metadata.annotations = { 'ray.io/overwrite-container-cmd': 'true' };
    });
    const container = ray(head(c));
    expect(container.args?.[0]).toMatch(expected);
    expect(envMap(container.env).KUBERAY_GEN_RAY_START_CMD).toMatch(/^ray start --head /);
  });
  it('login shell: bash -cl', () => {
    expect(ray(buildHeadPod(sampleCluster(), { ...settings, enableLoginShell: true }, { specHash: 'h' })).command).toEqual(['/bin/bash', '-cl', '--']);
  });
  it('token auth: RAY_AUTH_MODE and the token from the clipped cluster Secret, on Ray and wait-gcs-ready containers', () => {
    const c = sampleCluster((c) => { c.spec.authOptions = { mode: 'token' }; });
    const expected = [
      { name: 'RAY_AUTH_MODE', value: 'token' },
      { name: 'RAY_AUTH_TOKEN', valueFrom: { secretKeyRef: { name: 'rayjob-sample-x7k2p', key: 'auth_token' } } },
    ];
    expect(ray(head(c)).env?.slice(0, 2)).toEqual(expected);
    expect(worker(c).spec?.initContainers?.[0]?.env?.slice(0, 2)).toEqual(expected);
  });
  it('Kubernetes token auth: a projected token volume instead of a Secret', () => {
    const c = sampleCluster((c) => { c.spec.authOptions = { mode: 'token', enableK8sTokenAuth: true }; });
    const pod = head(c);
    expect(ray(pod).env?.slice(0, 2)).toEqual([{ name: 'RAY_AUTH_MODE', value: 'token' }, { name: 'RAY_ENABLE_K8S_TOKEN_AUTH', value: 'true' }]);
    expect(pod.spec?.volumes).toContainEqual({ name: 'ray-token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } });
    expect(ray(pod).volumeMounts).toContainEqual({ name: 'ray-token', mountPath: '/var/run/secrets/ray.io/serviceaccount', readOnly: true });
  });
});

describe('rayStartParams completion', () => {
  const complete = (input: Partial<Parameters<typeof completeRayStartParams>[0]>) =>
    completeRayStartParams({ nodeType: 'worker', rayStartParams: {}, groupResources: undefined, groupLabels: undefined, containerResources: undefined, headAddress: 'h:1', ...input });
  it.each([
    ['CPU limit rounds up', { containerResources: { limits: { cpu: '500m' } } }, { 'num-cpus': '1' }],
    ['CPU request when no limit', { containerResources: { requests: { cpu: '2' } } }, { 'num-cpus': '2' }],
    ['memory from the limit only', { containerResources: { requests: { memory: '1Gi' } } }, { memory: undefined }],
    ['the first GPU limit by sorted name', { containerResources: { limits: { 'nvidia.com/gpu': '2', 'amd.com/gpu': '1' } } }, { 'num-gpus': '1' }],
    ['MIG slices count as GPUs', { containerResources: { limits: { 'nvidia.com/mig-1g.5gb': '1' } } }, { 'num-gpus': '1' }],
    ['a TPU limit becomes a custom resource', { containerResources: { limits: { 'google.com/tpu': '4' } } }, { resources: `'{"TPU":4}'` }],
    ['group resources map to flags and JSON', { groupResources: { CPU: '3', memory: '1Gi', 'nvidia.com/gpu': '1', custom: '0.5' } },
      { 'num-cpus': '3', memory: '1073741824', 'num-gpus': '1', resources: `'{"custom":0.5}'` }],
    ['group labels, sorted', { groupLabels: { z: '1', a: '2' } }, { labels: 'a=2,z=1' }],
    ['a user address wins', { rayStartParams: { address: 'x:2' } }, { address: 'x:2' }],
    ['block is forced', { rayStartParams: { block: 'false' } }, { block: 'true' }],
  ])('%s', (_label, input, expected) => {
    expect(complete(input)).toMatchObject(Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)));
    for (const [k, v] of Object.entries(expected)) if (v === undefined) expect(complete(input)[k]).toBeUndefined();
  });
  it('renders true as a bare flag, drops false, keeps explicit booleans for log-color & co', () => {
    expect(rayStartCommand('worker', { b: 'TRUE', a: 'false', 'log-color': 'false', c: 'x y' })).toBe('ray start  --b  --c=x y  --log-color=false ');
  });
});

describe('settings from the environment', () => {
  it.each([
    [{}, { enableInitContainerInjection: true, enableProbesInjection: true, enableRayHeadClusterIPService: false, clusterDomain: 'cluster.local' }],
    [{ ENABLE_INIT_CONTAINER_INJECTION: 'False', ENABLE_PROBES_INJECTION: 'false', ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE: 'true', CLUSTER_DOMAIN: 'k.local' },
      { enableInitContainerInjection: false, enableProbesInjection: false, enableRayHeadClusterIPService: true, clusterDomain: 'k.local' }],
    [{ ENABLE_DETERMINISTIC_HEAD_POD_NAME: 'TRUE', ENABLE_RANDOM_POD_DELETE: 'true', ENABLE_LOGIN_SHELL: 'true' },
      { deterministicHeadPodName: true, enableRandomPodDelete: true, enableLoginShell: true }],
  ])('%j', (env, expected) => {
    expect(rayClusterSettingsFromEnv(env)).toMatchObject(expected);
  });
});
