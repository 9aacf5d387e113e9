// The autoscaler's head Pod and RBAC objects, field by field as KubeRay's builder makes them (reference §4.5, §6.3),
// for clusters modelled on KubeRay's samples ray-cluster.autoscaler.yaml, ray-cluster.autoscaler-v2.yaml and
// ray-cluster.autoscaler-v2-overwrite-cmd.yaml (our own manifests with the same fields; no RayJob sample of the
// 2026-08-19 snapshot autoscales, so a RayJob-made cluster is covered by its label below).
import { describe, expect, it } from 'vitest';
import {
  buildAutoscalerRole,
  buildAutoscalerRoleBinding,
  buildAutoscalerServiceAccount,
  buildHeadPod,
  buildWorkerPod,
  RayClusterSchema,
  type Container,
  type RayCluster,
  type RayClusterInput,
} from '../../src/index.ts';
import { settings } from './fixtures.ts';

const autoscalerResources = { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '500m', memory: '512Mi' } };

/** ray-cluster.autoscaler.yaml's cluster (v1 by default); `version` etc. vary per case. */
function autoscalerSample(name = 'raycluster-autoscaler', edit: (c: RayClusterInput) => void = () => {}): RayCluster {
  const input: RayClusterInput = {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name, namespace: 'default', uid: 'uid-a', generation: 1 },
    spec: {
      rayVersion: '2.52.0',
      enableInTreeAutoscaling: true,
      autoscalerOptions: {
        upscalingMode: 'Default',
        idleTimeoutSeconds: 60,
        imagePullPolicy: 'IfNotPresent',
        securityContext: {},
        env: [],
        envFrom: [],
        resources: autoscalerResources,
      },
      headGroupSpec: {
        rayStartParams: { 'num-cpus': '0' },
        template: {
          spec: {
            containers: [
              {
                name: 'ray-head',
                image: 'rayproject/ray:2.52.0',
                ports: [
                  { containerPort: 6379, name: 'gcs' },
                  { containerPort: 8265, name: 'dashboard' },
                  { containerPort: 10001, name: 'client' },
                ],
                resources: { limits: { cpu: '1', memory: '5Gi' }, requests: { cpu: '1', memory: '2Gi' } },
                volumeMounts: [{ mountPath: '/home/ray/samples', name: 'ray-example-configmap' }],
              },
            ],
            volumes: [{ name: 'ray-example-configmap', configMap: { name: 'ray-example', defaultMode: 0o777 } }],
          },
        },
      },
      workerGroupSpecs: [
        {
          replicas: 0,
          minReplicas: 0,
          maxReplicas: 10,
          groupName: 'small-group',
          rayStartParams: {},
          template: {
            spec: {
              containers: [
                { name: 'ray-worker', image: 'rayproject/ray:2.52.0', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } },
              ],
            },
          },
        },
      ],
    },
  };
  edit(input);
  return RayClusterSchema.parse(input);
}

const head = (c: RayCluster) => buildHeadPod(c, settings, { specHash: 'h' });
const worker = (c: RayCluster) => buildWorkerPod(c, c.spec.workerGroupSpecs![0]!, settings, 0);
const containerNamed = (c: RayCluster, name: string) => head(c).spec?.containers.find((x) => x.name === name) as Container & Record<string, unknown>;
const START = 'ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) --cluster-namespace $(RAY_CLUSTER_NAMESPACE)';
const autoscalerEnv = [
  { name: 'RAY_CLUSTER_NAME', valueFrom: { fieldRef: { fieldPath: "metadata.labels['ray.io/cluster']" } } },
  { name: 'RAY_CLUSTER_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
  { name: 'RAY_HEAD_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  { name: 'KUBERAY_CRD_VER', value: 'v1' },
  { name: 'KUBERAY_GEN_AUTOSCALER_START_CMD', value: START },
];

describe('ray-cluster.autoscaler.yaml: the head Pod', () => {
  const cluster = autoscalerSample();
  const pod = head(cluster);

  it('has the autoscaler sidecar after the Ray container, exactly as KubeRay builds it', () => {
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['ray-head', 'autoscaler']);
    expect(pod.spec?.containers[1]).toEqual({
      name: 'autoscaler',
      image: 'rayproject/ray:2.52.0',
      imagePullPolicy: 'IfNotPresent',
      env: autoscalerEnv,
      command: ['/bin/bash', '-c', '--'],
      args: [START],
      resources: autoscalerResources,
      securityContext: {},
      volumeMounts: [{ mountPath: '/tmp/ray', name: 'ray-logs' }],
    });
  });

  it('runs `ray start` with --no-monitor and shares ray-logs with the Ray container', () => {
    const ray = pod.spec?.containers[0] as Container;
    expect(ray.args).toEqual([
      'ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ray start --head  --block  --dashboard-agent-listen-port=52365  --dashboard-host=0.0.0.0  --memory=5368709120  --metrics-export-port=8080  --no-monitor  --num-cpus=0 ',
    ]);
    expect(ray.volumeMounts).toEqual([
      { mountPath: '/home/ray/samples', name: 'ray-example-configmap' },
      { mountPath: '/dev/shm', name: 'shared-mem' },
      { mountPath: '/tmp/ray', name: 'ray-logs' },
    ]);
    expect(pod.spec?.volumes).toEqual([
      { name: 'ray-example-configmap', configMap: { name: 'ray-example', defaultMode: 0o777 } },
      { name: 'shared-mem', emptyDir: { medium: 'Memory', sizeLimit: '5Gi' } },
      { name: 'ray-logs', emptyDir: {} },
    ]);
    expect((ray.env ?? []).map((e) => e.name)).not.toContain('RAY_enable_autoscaler_v2');
  });

  it('runs as the cluster-named ServiceAccount; restartPolicy is left to the API default (v1)', () => {
    expect(pod.spec?.serviceAccountName).toBe('raycluster-autoscaler');
    expect(pod.spec?.restartPolicy).toBeUndefined();
    expect(worker(cluster).spec?.restartPolicy).toBeUndefined();
  });

  it('workers get neither the sidecar nor --no-monitor', () => {
    const w = worker(cluster);
    expect(w.spec?.containers.map((c) => c.name)).toEqual(['ray-worker']);
    expect(w.spec?.containers[0]?.args?.[0]).not.toContain('no-monitor');
    expect(w.spec?.serviceAccountName).toBeUndefined();
  });
});

describe('autoscaler versions and options', () => {
  it.each([
    { name: 'v2 (ray-cluster.autoscaler-v2.yaml): RAY_enable_autoscaler_v2=true before KubeRay\'s env, restartPolicy Never on head and workers', version: 'v2' as const, env: 'true', policy: 'Never' },
    { name: 'explicit v1: RAY_enable_autoscaler_v2=false, restartPolicy untouched', version: 'v1' as const, env: 'false', policy: undefined },
  ])('$name', ({ version, env, policy }) => {
    const cluster = autoscalerSample('raycluster-autoscaler', (c) => { c.spec.autoscalerOptions!.version = version; });
    const ray = head(cluster).spec?.containers[0] as Container;
    expect(ray.env?.[0]).toEqual({ name: 'RAY_enable_autoscaler_v2', value: env });
    expect(ray.env?.[1]?.name).toBe('RAY_CLUSTER_NAME');
    expect(head(cluster).spec?.restartPolicy).toBe(policy);
    expect(worker(cluster).spec?.restartPolicy).toBe(policy);
  });

  it('ray-cluster.autoscaler-v2-overwrite-cmd.yaml: the user command and args replace KubeRay\'s; the generated command stays in env', () => {
    const cluster = autoscalerSample('raycluster-autoscaler-overwrite-cmd', (c) => {
      Object.assign(c.spec.autoscalerOptions!, { version: 'v2', command: ['/bin/bash', '-lc', '--'], args: ["echo 'Starting autoscaler...'; $KUBERAY_GEN_AUTOSCALER_START_CMD"] });
    });
    const a = containerNamed(cluster, 'autoscaler');
    expect(a.command).toEqual(['/bin/bash', '-lc', '--']);
    expect(a.args).toEqual(["echo 'Starting autoscaler...'; $KUBERAY_GEN_AUTOSCALER_START_CMD"]);
    expect(a.env).toEqual(autoscalerEnv);
  });

  it('autoscalerOptions: image, pull policy, resources and securityContext replace; env, envFrom and volumeMounts append', () => {
    const cluster = autoscalerSample('c', (c) => {
      c.spec.autoscalerOptions = {
        image: 'my/autoscaler:1',
        imagePullPolicy: 'Always',
        resources: { limits: { cpu: '1' } },
        securityContext: { runAsNonRoot: true },
        env: [{ name: 'AUTOSCALER_LOG', value: 'debug' }],
        envFrom: [{ configMapRef: { name: 'cm' } }],
        volumeMounts: [{ name: 'extra', mountPath: '/extra' }],
      };
    });
    const a = containerNamed(cluster, 'autoscaler');
    expect(a).toMatchObject({ image: 'my/autoscaler:1', imagePullPolicy: 'Always', resources: { limits: { cpu: '1' } }, securityContext: { runAsNonRoot: true } });
    expect(a.env).toEqual([...autoscalerEnv, { name: 'AUTOSCALER_LOG', value: 'debug' }]);
    expect(a.envFrom).toEqual([{ configMapRef: { name: 'cm' } }]);
    expect(a.volumeMounts).toEqual([{ name: 'extra', mountPath: '/extra' }, { mountPath: '/tmp/ray', name: 'ray-logs' }]);
  });

  it('a container that already mounts /tmp/ray gets no ray-logs mount; the volume exists once for the other', () => {
    const cluster = autoscalerSample('c', (c) => {
      c.spec.autoscalerOptions = { volumeMounts: [{ name: 'mine', mountPath: '/tmp/ray' }] };
    });
    const pod = head(cluster);
    expect(containerNamed(cluster, 'autoscaler').volumeMounts).toEqual([{ name: 'mine', mountPath: '/tmp/ray' }]);
    expect(pod.spec?.containers[0]?.volumeMounts).toContainEqual({ mountPath: '/tmp/ray', name: 'ray-logs' });
    expect(pod.spec?.volumes?.filter((v) => v.name === 'ray-logs')).toHaveLength(1);
  });

  it('token auth: the autoscaler gets RAY_AUTH_MODE and the token from the cluster\'s Secret', () => {
    const cluster = autoscalerSample('c', (c) => { c.spec.authOptions = { mode: 'token' }; c.spec.rayVersion = '2.53.0'; });
    const env = containerNamed(cluster, 'autoscaler').env ?? [];
    expect(env.slice(5)).toEqual([
      { name: 'RAY_AUTH_MODE', value: 'token' },
      { name: 'RAY_AUTH_TOKEN', valueFrom: { secretKeyRef: { name: 'c', key: 'auth_token' } } },
    ]);
  });

  it('no autoscaling: no sidecar, no --no-monitor, no ServiceAccount, no ray-logs', () => {
    const cluster = autoscalerSample('c', (c) => { c.spec.enableInTreeAutoscaling = false; delete c.spec.autoscalerOptions; });
    const pod = head(cluster);
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['ray-head']);
    expect(pod.spec?.containers[0]?.args?.[0]).not.toContain('no-monitor');
    expect(pod.spec?.serviceAccountName).toBeUndefined();
    expect(pod.spec?.volumes?.map((v) => v.name)).not.toContain('ray-logs');
  });
});

describe('the autoscaler\'s ServiceAccount, Role and RoleBinding', () => {
  const owner = { apiVersion: 'ray.io/v1', kind: 'RayCluster', name: 'raycluster-autoscaler', uid: 'uid-a', controller: true, blockOwnerDeletion: true };
  const labels = { 'ray.io/cluster': 'raycluster-autoscaler', 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/created-by': 'kuberay-operator' };
  const meta = { name: 'raycluster-autoscaler', namespace: 'default', labels, ownerReferences: [owner] };
  const cluster = autoscalerSample();

  it('are named after the cluster, labelled and owned by it, with exactly the autoscaler\'s rules', () => {
    expect(buildAutoscalerServiceAccount(cluster)).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta });
    expect(buildAutoscalerRole(cluster)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta,
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'patch'] },
        { apiGroups: [''], resources: ['pods/resize'], verbs: ['patch'] },
        { apiGroups: ['ray.io'], resources: ['rayclusters'], verbs: ['get', 'patch'] },
      ],
    });
    expect(buildAutoscalerRoleBinding(cluster)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta,
      subjects: [{ kind: 'ServiceAccount', name: 'raycluster-autoscaler', namespace: 'default' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'raycluster-autoscaler' },
    });
  });

  it('a head template naming its own ServiceAccount: the Pod and the RoleBinding use it', () => {
    const own = autoscalerSample('c', (c) => { c.spec.headGroupSpec.template.spec!.serviceAccountName = 'team-sa'; });
    expect(head(own).spec?.serviceAccountName).toBe('team-sa');
    expect(buildAutoscalerRoleBinding(own).subjects[0]?.name).toBe('team-sa');
    expect(buildAutoscalerRole(own).metadata.name).toBe('c');
  });

  it.each([
    { sa: `z-${'e'.repeat(49)}`, expected: `r${'e'.repeat(49)}`, why: 'over 50 characters: the last 50, whose leading dash becomes r' },
    { sa: `1${'a'.repeat(9)}`, expected: `r${'a'.repeat(9)}`, why: 'a leading digit becomes r' },
    { sa: 'team-sa', expected: 'team-sa', why: 'a valid name is kept' },
  ])('ServiceAccount names are clipped as KubeRay does: $why', ({ sa, expected }) => {
    const c = autoscalerSample('x', (i) => { i.spec.headGroupSpec.template.spec!.serviceAccountName = sa; });
    expect(buildAutoscalerServiceAccount(c).metadata.name).toBe(expected);
    expect(head(c).spec?.serviceAccountName).toBe(expected);
    expect(buildAutoscalerRoleBinding(c).subjects[0]?.name).toBe(expected);
  });
});
