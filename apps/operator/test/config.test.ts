import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';

const ok = (argv: string[], env: Record<string, string> = {}) => {
  const r = loadConfig(argv, env);
  if (r.ok !== true) throw new Error(`expected a config, got ${JSON.stringify(r)}`);
  return r.config;
};
const error = (argv: string[]) => {
  const r = loadConfig(argv, {});
  if (r.ok !== false) throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.message;
};

describe('operator flags', () => {
  it("defaults are KubeRay's", () => {
    const c = ok([]);
    expect(c).toMatchObject({
      metricsAddr: ':8080', probeAddr: ':8082', enableLeaderElection: true, leaderElectionId: 'ray-operator-leader',
      reconcileConcurrency: 1, watchNamespaces: [], useKubernetesProxy: false, enableMetrics: false, qps: 100, burst: 200,
      managedBy: 'ray.io/kuberay-operator',
    });
    expect(c.settings.featureGates).toEqual({
      rayJobDeletionPolicy: true, sidecarSubmitterRestart: false, rayClusterNetworkPolicy: false, gcsFaultToleranceEmbeddedStorage: false, rayClusterMTLS: false, rayClusterHistoryServer: false,
    });
    expect(c.featureGates).toMatchObject({ RayClusterStatusConditions: true, RayMultiHostIndexing: true, RayServiceIncrementalUpgrade: true, KubernetesWAS: false });
    expect(c.settings.statusCheckTimeoutSeconds).toBe(300);
    expect(c.batchScheduler).toBe('');
  });

  it.each([
    { argv: ['--reconcile-concurrency=4'], want: { reconcileConcurrency: 4 } },
    { argv: ['-reconcile-concurrency', '4'], want: { reconcileConcurrency: 4 } },
    { argv: ['--enable-leader-election=false'], want: { enableLeaderElection: false } },
    { argv: ['--use-kubernetes-proxy'], want: { useKubernetesProxy: true } },
    { argv: ['--watch-namespace', 'a, b'], want: { watchNamespaces: ['a', 'b'] } },
    { argv: ['--managed-by', 'rayjob.io/operator'], want: { managedBy: 'rayjob.io/operator', leaderElectionId: 'rayjob-operator-leader' } },
    { argv: ['--managed-by=rayjob.io/operator', '--leader-election-id=mine'], want: { leaderElectionId: 'mine' } },
    { argv: ['--submitter-image', 'example.com/sub:1'], want: { submitterImage: 'example.com/sub:1' } },
    { argv: ['--metrics-addr=0', '--health-probe-bind-address=127.0.0.1:9000'], want: { metricsAddr: '0', probeAddr: '127.0.0.1:9000' } },
    { argv: ['--forced-cluster-upgrade'], want: {} },
    { argv: ['--feature-gates=RayCronJob=true'], want: { gatesWithoutEffect: ['RayCronJob'] } },
  ])('$argv', ({ argv, want }) => {
    expect(ok(argv)).toMatchObject(want);
  });

  it('feature gates and env reach the decision settings', () => {
    const c = ok(['--feature-gates', 'SidecarSubmitterRestart=true,RayJobDeletionPolicy=false'], {
      RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS: '7', DELETE_RAYJOB_CR_AFTER_JOB_FINISHES: 'TRUE', CLUSTER_DOMAIN: 'k.local',
    });
    expect(c.settings.featureGates).toMatchObject({ rayJobDeletionPolicy: false, sidecarSubmitterRestart: true });
    expect(c.settings).toMatchObject({ statusCheckTimeoutSeconds: 7, deleteRayJobAfterJobFinishes: true, clusterDomain: 'k.local' });
    expect(c.settings.managedBy).toBe('ray.io/kuberay-operator');
  });

  it.each([
    { argv: ['--nope'], says: 'flag provided but not defined: -nope' },
    { argv: ['--reconcile-concurrency=0'], says: '--reconcile-concurrency' },
    { argv: ['--reconcile-concurrency=x'], says: '--reconcile-concurrency: "x" is not a number' },
    { argv: ['--enable-leader-election=maybe'], says: '--enable-leader-election: invalid boolean value' },
    { argv: ['--managed-by=someone'], says: '--managed-by must be one of' },
    { argv: ['--feature-gates=Nope=true'], says: 'unrecognized feature gate: Nope' },
    { argv: ['--feature-gates=RayCronJob=yes'], says: 'must be true or false' },
    { argv: ['--metrics-addr=8080'], says: '--metrics-addr: must be host:port' },
    { argv: ['--batch-scheduler=slurm'], says: '--batch-scheduler: scheduler is not supported, name=slurm' },
    { argv: ['--batch-scheduler=volcano', '--enable-batch-scheduler'], says: 'use --batch-scheduler only' },
    { argv: ['--batch-scheduler=yunikorn', '--feature-gates=KubernetesWAS=true'], says: 'KubernetesWAS feature gate cannot be combined' },
    { argv: ['--metrics-addr'], says: 'flag needs an argument: -metrics-addr' },
    { argv: ['extra'], says: 'unexpected argument "extra"' },
  ])('rejects $argv naming the flag', ({ argv, says }) => {
    expect(error(argv)).toContain(says);
  });

  it("accepts KubeRay's chart's default featureGates list, with KubeRay's meaning", () => {
    // helm-chart/kuberay-operator/values.yaml's featureGates, as its deployment template renders them.
    const kuberayDefaults = 'RayClusterStatusConditions=true,RayJobDeletionPolicy=true,RayMultiHostIndexing=true,RayServiceIncrementalUpgrade=true,'
      + 'RayCronJob=false,RayClusterMTLS=false,RayClusterNetworkPolicy=false,RayClusterHistoryServer=false';
    const c = ok([`--feature-gates=${kuberayDefaults}`]);
    expect(c.featureGates).toMatchObject({ RayClusterMTLS: false, RayClusterNetworkPolicy: false, RayClusterHistoryServer: false, RayMultiHostIndexing: true });
    expect(c.gatesWithoutEffect).toEqual(['RayServiceIncrementalUpgrade', 'RayCronJob']);
  });

  it.each([
    { gates: 'RayClusterMTLS=true', want: { rayClusterMTLS: true } },
    { gates: 'RayClusterNetworkPolicy=true,RayClusterHistoryServer=true', want: { rayClusterNetworkPolicy: true, rayClusterHistoryServer: true } },
    { gates: 'GCSFaultToleranceEmbeddedStorage=true', want: { gcsFaultToleranceEmbeddedStorage: true } },
    { gates: 'AllAlpha=true,RayCronJob=false', want: { sidecarSubmitterRestart: true, rayClusterMTLS: true, rayJobDeletionPolicy: true } },
    { gates: 'AllBeta=false', want: { rayJobDeletionPolicy: false, sidecarSubmitterRestart: false } },
  ])('--feature-gates=$gates reaches validation and the decision', ({ gates, want }) => {
    expect(ok([`--feature-gates=${gates}`]).settings.featureGates).toMatchObject(want);
  });

  it.each([
    { argv: ['--batch-scheduler=volcano'], want: 'volcano' },
    { argv: ['--enable-batch-scheduler'], want: 'volcano' },
    { argv: ['--batch-scheduler=kai-scheduler'], want: 'kai-scheduler' },
  ])('accepts $argv (no PodGroups here; objects get a Warning event)', ({ argv, want }) => {
    expect(ok(argv).batchScheduler).toBe(want);
  });

  describe('--config (KubeRay\'s config.ray.io/v1alpha1 Configuration)', () => {
    const withFile = (text: string, argv: string[] = []) => loadConfig(['--config', '/etc/kuberay/config.yaml', ...argv], {}, (p) => {
      if (p !== '/etc/kuberay/config.yaml') throw new Error(`ENOENT: ${p}`);
      return text;
    });
    // As KubeRay's chart renders it with configuration.enabled=true and sidecars/env/labels set.
    const chartFile = [
      'apiVersion: config.ray.io/v1alpha1',
      'kind: Configuration',
      'enableLeaderElection: false',
      'enableMetrics: true',
      'reconcileConcurrency: 4',
      'qps: 50.5',
      'burst: 80',
      'watchNamespace: "team-a,team-b"',
      'logStdoutEncoder: "console"',
      'deleteRayJobAfterJobFinishes: true',
      'headSidecarContainers:',
      '- name: fluentbit',
      '  image: fluent/fluent-bit:3',
      'workerSidecarContainers:',
      '- name: logs',
      '  image: busybox',
      'defaultContainerEnvs:',
      '- name: RAY_DEDUP_LOGS',
      '  value: "0"',
      'defaultPodAnnotations:',
      '  team: ml',
      'defaultPodLabels:',
      '  cost-center: "42"',
    ].join('\n');

    it('honours every setting that applies, and the flags the file covers are ignored as in KubeRay', () => {
      const r = withFile(chartFile, ['--reconcile-concurrency=9', '--submitter-image=example.com/s:1']);
      if (r.ok !== true) throw new Error(JSON.stringify(r));
      expect(r.config).toMatchObject({
        enableLeaderElection: false, enableMetrics: true, reconcileConcurrency: 4, qps: 50.5, burst: 80, watchNamespaces: ['team-a', 'team-b'],
        logStdoutEncoder: 'console', metricsAddr: ':8080', probeAddr: ':8082', submitterImage: 'example.com/s:1',
      });
      expect(r.config.settings.deleteRayJobAfterJobFinishes).toBe(true);
      expect(r.config.podDefaults).toEqual({
        headSidecarContainers: [{ name: 'fluentbit', image: 'fluent/fluent-bit:3' }],
        workerSidecarContainers: [{ name: 'logs', image: 'busybox' }],
        defaultContainerEnvs: [{ name: 'RAY_DEDUP_LOGS', value: '0' }],
        defaultPodAnnotations: { team: 'ml' },
        defaultPodLabels: { 'cost-center': '42' },
      });
      expect(r.config.notices).toEqual(['--config given: flags ignored as KubeRay ignores them (set them in the file): --reconcile-concurrency']);
    });

    it('a minimal file gives KubeRay\'s defaults; unknown fields are ignored and reported', () => {
      const r = withFile('apiVersion: config.ray.io/v1alpha1\nkind: Configuration\nsomethingNew: 1\n');
      if (r.ok !== true) throw new Error(JSON.stringify(r));
      expect(r.config).toMatchObject({ enableLeaderElection: true, reconcileConcurrency: 1, qps: 100, burst: 200, enableMetrics: false });
      expect(r.config.notices[0]).toContain('somethingNew');
    });

    it.each([
      { text: 'apiVersion: v1\nkind: Configuration\n', says: 'apiVersion: must be config.ray.io/v1alpha1' },
      { text: 'apiVersion: config.ray.io/v1alpha1\nkind: Configuration\nqps: fast\n', says: 'qps:' },
      { text: 'apiVersion: config.ray.io/v1alpha1\nkind: Configuration\nreconcileConcurrency: -1\n', says: 'reconcileConcurrency' },
      { text: 'apiVersion: config.ray.io/v1alpha1\nkind: Configuration\nbatchScheduler: slurm\n', says: 'name=slurm' },
      { text: 'apiVersion: config.ray.io/v1alpha1\nkind: Configuration\nmetricsAddr: nope\n', says: '--config /etc/kuberay/config.yaml: metricsAddr: must be host:port' },
      { text: '[1, 2', says: 'not YAML' },
      { text: '- a\n', says: 'must hold one object' },
    ])('rejects a bad file naming the field: $says', ({ text, says }) => {
      const r = withFile(text);
      expect(r.ok).toBe(false);
      if (r.ok === false) expect(r.message).toContain(says);
    });

    it('an unreadable file is an error naming the path', () => {
      const r = loadConfig(['--config=/nope.yaml'], {}, () => {
        throw new Error('ENOENT');
      });
      expect(r.ok === false && r.message).toContain('--config /nope.yaml: cannot read');
    });
  });

  it('--help asks for usage', () => {
    expect(loadConfig(['--help'], {})).toEqual({ ok: 'help' });
  });
});

describe('RayCluster controller configuration', () => {
  it("comes from the configuration's environment (KubeRay's variables), the feature gates and the pod defaults", () => {
    const c = ok(['--feature-gates=RayClusterStatusConditions=false'], { ENABLE_LOGIN_SHELL: 'true', ENABLE_INIT_CONTAINER_INJECTION: 'FALSE', CLUSTER_DOMAIN: 'corp.local', RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV: '60' });
    expect(c.rayCluster.settings).toMatchObject({ enableLoginShell: true, enableInitContainerInjection: false, clusterDomain: 'corp.local' });
    expect(c.rayCluster.settings.featureGates.rayClusterStatusConditions).toBe(false);
    expect(c.rayCluster.settings.podDefaults).toEqual(c.podDefaults);
    expect(c.rayCluster.idleRequeueSeconds).toBe(60);
  });

  it.each([undefined, '', 'abc', '0', '-5', '1.5'])('an unset or invalid RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV (%s) is 300 s', (value) => {
    expect(ok([], value === undefined ? {} : { RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV: value }).rayCluster.idleRequeueSeconds).toBe(300);
  });
});
