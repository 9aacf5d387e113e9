/**
 * Two contracts beside the status-correctness cases: the submitter's exit codes (C18) and the RayJob head Service
 * kept pointing at the current cluster.
 */
import { describe, expect, it } from 'vitest';
import { SubmitterExitCode } from '../../src/index.ts';
import { actionTypes, DRIVER_NODE, found, healthyCluster, inState, makeCluster, run, submitterJob } from './fixtures.ts';

const running = () => inState('Running', 'K8sJobMode', {}, {});

describe('C18: the submitter exit-code contract', () => {
  it.each([
    ['SUCCEEDED', 'Succeeded', 0], ['FAILED', 'JobFailed', 1], ['STOPPED', 'Succeeded', 0], ['head lost', 'HeadLost', 3],
    ['unreachable', 'Unreachable', 4], ['driver lost', 'DriverLost', 5], ['SIGTERM', 'Terminated', 143], ['internal error', 'InternalError', 70],
  ] as const)('%s exits with %s (%i)', (_situation, name, code) => {
    expect(SubmitterExitCode[name]).toBe(code);
  });
});

describe('the RayJob head Service', () => {
  it('a stale RayJob head Service is updated to the current cluster', () => {
    const d = run({ rayJob: running(), ...healthyCluster(), rayJobHeadService: { metadata: { name: 'rayjob-sample-head-svc' }, spec: { selector: { 'ray.io/cluster': 'old' } } }, submitterJob: submitterJob(), dashboard: found('RUNNING'), driverNode: { kind: 'alive', nodeId: DRIVER_NODE } });
    expect(actionTypes(d)).toEqual(['applyHeadService']);
    expect(d.actions[0]).toMatchObject({ existing: 'stale', service: { spec: { selector: { 'ray.io/cluster': makeCluster().metadata.name } } } });
  });
});
