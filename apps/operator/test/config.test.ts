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
    expect(c.settings.featureGates).toEqual({ rayJobDeletionPolicy: true, sidecarSubmitterRestart: false });
    expect(c.settings.statusCheckTimeoutSeconds).toBe(300);
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
    expect(c.settings.featureGates).toEqual({ rayJobDeletionPolicy: false, sidecarSubmitterRestart: true });
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
    { argv: ['--batch-scheduler=volcano'], says: 'batch schedulers are not supported' },
    { argv: ['--config=/etc/c.yaml'], says: '--config: the structured config file is not supported' },
    { argv: ['--metrics-addr'], says: 'flag needs an argument: -metrics-addr' },
    { argv: ['extra'], says: 'unexpected argument "extra"' },
  ])('rejects $argv naming the flag', ({ argv, says }) => {
    expect(error(argv)).toContain(says);
  });

  it('--help asks for usage', () => {
    expect(loadConfig(['--help'], {})).toEqual({ ok: 'help' });
  });
});
