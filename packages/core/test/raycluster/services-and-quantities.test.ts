import { describe, expect, it } from 'vitest';
import {
  addQuantities,
  buildAuthSecret,
  buildClusterHeadService,
  buildHeadlessWorkerService,
  buildServeService,
  clusterSpecHash,
  formatQuantity,
  multiplyQuantity,
  needsAuthSecret,
  parseQuantity,
  quantityCeil,
  type ServicePort,
  type RayClusterInput,
} from '../../src/index.ts';
import { sampleCluster, settings } from './fixtures.ts';

describe('quantities', () => {
  it.each([
    ['500m', 1n, '500m'],
    ['1', 1n, '1'],
    ['1.5', 2n, '1500m'],
    ['5Gi', 5368709120n, '5Gi'],
    ['1000Mi', 1048576000n, '1000Mi'],
    ['1536', 1536n, '1536'],
    ['1000', 1000n, '1k'],
    ['2e3', 2000n, '2k'],
    ['100n', 1n, '100n'],
    ['0.5Gi', 536870912n, '512Mi'],
    ['-1', -1n, '-1'],
    [3, 3n, '3'],
  ])('%s: Value() %s, canonical %s', (text, ceil, canonical) => {
    const q = parseQuantity(text)!;
    expect(quantityCeil(q)).toBe(ceil);
    expect(formatQuantity(q)).toBe(canonical);
  });
  it.each(['', 'abc', '1x', '1..2'])('rejects %j', (text) => expect(parseQuantity(text)).toBeUndefined());
  it('sums and products keep the first operand\'s format', () => {
    const cpu = addQuantities(parseQuantity('1')!, multiplyQuantity(parseQuantity('200m')!, 3));
    expect(formatQuantity(cpu)).toBe('1600m');
    expect(formatQuantity(addQuantities(parseQuantity('5Gi')!, parseQuantity('1Gi')!))).toBe('6Gi');
    expect(formatQuantity(multiplyQuantity(parseQuantity('1Gi')!, 0))).toBe('0');
    expect(formatQuantity(parseQuantity('1000Ki')!)).toBe('1000Ki');
  });
});

describe('head Service', () => {
  it('named <cluster>-head-svc, headless, container ports sorted by name plus metrics, all appProtocol tcp', () => {
    const svc = buildClusterHeadService(sampleCluster(), settings);
    expect(svc.metadata.name).toBe('rayjob-sample-x7k2p-head-svc');
    expect(svc.metadata.labels).toEqual(svc.spec?.selector);
    expect(svc.spec?.selector).toEqual({
      'ray.io/cluster': 'rayjob-sample-x7k2p', 'ray.io/node-type': 'head', 'ray.io/identifier': 'rayjob-sample-x7k2p-head',
      'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/created-by': 'kuberay-operator',
    });
    expect(svc.spec?.ports?.map((p: ServicePort) => `${p.name}:${p.port}:${p.appProtocol}`)).toEqual([
      'client:10001:tcp', 'dashboard:8265:tcp', 'gcs-server:6379:tcp', 'metrics:8080:tcp',
    ]);
    expect(svc.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
    expect(svc.metadata.ownerReferences?.[0]?.kind).toBe('RayCluster');
  });
  it.each([
    ['no container ports: Ray\'s defaults', (c: RayClusterInput) => { delete c.spec.headGroupSpec.template.spec!.containers![0]!.ports; },
      ['client', 'dashboard', 'gcs-server', 'metrics', 'serve']],
    ['unnamed ports become <port>-port', (c: RayClusterInput) => { c.spec.headGroupSpec.template.spec!.containers![0]!.ports = [{ containerPort: 7777 }]; },
      ['7777-port', 'metrics']],
  ])('%s', (_label, edit, names) => {
    expect(buildClusterHeadService(sampleCluster(edit), settings).spec?.ports?.map((p) => p.name)).toEqual(names);
  });
  it('a ClusterIP with ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE, or any non-ClusterIP type', () => {
    expect(buildClusterHeadService(sampleCluster(), { ...settings, enableRayHeadClusterIPService: true }).spec?.clusterIP).toBeUndefined();
    const nodePort = buildClusterHeadService(sampleCluster((c) => { c.spec.headGroupSpec.serviceType = 'NodePort'; }), settings);
    expect(nodePort.spec).toMatchObject({ type: 'NodePort' });
    expect(nodePort.spec?.clusterIP).toBeUndefined();
  });
  it('a user headService is the base: its name and ports kept, KubeRay labels and selector forced, annotations merged', () => {
    const c = sampleCluster((c) => {
      c.spec.headServiceAnnotations = { a: '1' };
      c.spec.headGroupSpec.headService = { metadata: { name: 'custom', namespace: 'elsewhere', labels: { x: 'y' } }, spec: { type: 'LoadBalancer', ports: [{ name: 'extra', port: 1 }] } };
    });
    const svc = buildClusterHeadService(c, settings);
    expect(svc.metadata).toMatchObject({ name: 'custom', namespace: 'default', labels: { x: 'y', 'ray.io/node-type': 'head' }, annotations: { a: '1' } });
    expect(svc.spec?.type).toBe('LoadBalancer');
    expect(svc.spec?.ports?.[0]).toEqual({ name: 'extra', port: 1 });
    expect(svc.spec?.clusterIP).toBeUndefined();
  });
});

describe('other children', () => {
  it('headless worker Service for multi-host groups', () => {
    expect(buildHeadlessWorkerService(sampleCluster())).toMatchObject({
      metadata: { name: 'rayjob-sample-x7k2p-headless', labels: { 'ray.io/headless-worker-svc': 'rayjob-sample-x7k2p' } },
      spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'ray.io/cluster': 'rayjob-sample-x7k2p', 'ray.io/node-type': 'worker' } },
    });
  });
  it('serve Service over serve ports, or KubeRay\'s error when the head has none', () => {
    expect(buildServeService(sampleCluster())).toMatchObject({ ok: false, error: expect.stringContaining("Please specify a port named 'serve'") });
    const serve = buildServeService(sampleCluster((c) => { c.spec.headGroupSpec.template.spec!.containers![0]!.ports!.push({ name: 'serve-grpc', containerPort: 9000 }); }));
    expect(serve).toMatchObject({ ok: true, service: { metadata: { name: 'rayjob-sample-x7k2p-serve-svc' }, spec: { ports: [{ name: 'serve-grpc', port: 9000 }], selector: { 'ray.io/cluster': 'rayjob-sample-x7k2p' } } } });
  });
  it.each([
    [{ mode: 'token' as const }, true],
    [{ mode: 'token' as const, secretName: 'mine' }, false],
    [{ mode: 'token' as const, enableK8sTokenAuth: true }, false],
    [{}, false],
    [{ mode: 'disabled' as const }, false],
  ])('auth Secret needed for %j: %s', (authOptions, expected) => {
    expect(needsAuthSecret(sampleCluster((c) => { c.spec.authOptions = authOptions; }))).toBe(expected);
  });
  it('auth Secret holds base64 of the given bytes under auth_token', () => {
    const secret = buildAuthSecret(sampleCluster(), new Uint8Array([0, 1, 2, 255, 254]));
    expect(secret.stringData).toEqual({ auth_token: 'AAEC//4=' });
    expect(secret.metadata).toMatchObject({ name: 'rayjob-sample-x7k2p', labels: { 'ray.io/cluster': 'rayjob-sample-x7k2p' } });
    expect(buildAuthSecret(sampleCluster(), new Uint8Array(32)).stringData.auth_token).toHaveLength(44);
  });
  it('spec hash ignores scaling and scheduling, not templates', () => {
    const base = clusterSpecHash(sampleCluster().spec);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    expect(clusterSpecHash(sampleCluster((c) => { c.spec.workerGroupSpecs![0]!.replicas = 4; c.spec.workerGroupSpecs![0]!.scaleStrategy = { workersToDelete: ['x'] }; }).spec)).toBe(base);
    expect(clusterSpecHash(sampleCluster((c) => { (c.spec.headGroupSpec.template.spec as Record<string, unknown>).tolerations = [{}]; }).spec)).toBe(base);
    expect(clusterSpecHash(sampleCluster((c) => { c.spec.headGroupSpec.template.spec!.containers![0]!.image = 'other'; }).spec)).not.toBe(base);
  });
});
