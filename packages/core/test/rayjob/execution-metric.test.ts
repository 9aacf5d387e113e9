import { describe, expect, it } from 'vitest';
import { executionDurationSample, type RayJobResourceStatus } from '../../src/index.ts';
import { at, iso } from './fixtures.ts';

const status = (jobDeploymentStatus: string, extra: Partial<RayJobResourceStatus> = {}) =>
  ({ jobDeploymentStatus, startTime: iso(0), failed: 0, succeeded: 0, ...extra }) as RayJobResourceStatus;

describe('kuberay_job_execution_duration_seconds', () => {
  it.each([
    ['Running -> Complete', status('Running'), status('Complete'), { seconds: 60, jobDeploymentStatus: 'Complete', retryCount: 0 }],
    ['Running -> Failed', status('Running'), status('Failed'), { seconds: 60, jobDeploymentStatus: 'Failed', retryCount: 0 }],
    ['Running -> Retrying with failed=2', status('Running', { failed: 2 }), status('Retrying', { failed: 3 }), { seconds: 60, jobDeploymentStatus: 'Retrying', retryCount: 2 }],
    ['Initializing -> Running: no sample', status('Initializing'), status('Running'), undefined],
    ['Complete -> Complete: no sample', status('Complete'), status('Complete'), undefined],
    ['no startTime: no sample', status('Running', { startTime: undefined }), status('Failed', { startTime: undefined }), undefined],
  ])('%s', (_n, original, next, expected) => {
    expect(executionDurationSample(original, next, at(60))).toEqual(expected);
  });
});
