import { describe, expect, it } from 'vitest';
import { clusterSpecHash } from '../../src/builders/raycluster/spec-hash.ts';
import { sampleCluster } from './fixtures.ts';

// Head pods carry this digest (ray.io/upgrade-strategy-recreate-hash): a new digest for the same spec would make
// upgradeStrategy Recreate replace every running cluster's pods after an operator upgrade. The values were made by
// the BigInt implementation this one replaced.
describe('the RayCluster spec digest', () => {
  const base = sampleCluster().spec;
  it.each([
    ['the sample spec', base, 'cbbafe18209a070a'],
    ['non-ASCII text (hashed as UTF-8 bytes)', { ...base, rayVersion: '2.58.0-ünïcødé-✓' }, '87b1863f17e42790'],
    ['other ray start params', { ...base, headGroupSpec: { ...base.headGroupSpec, rayStartParams: { 'num-cpus': '0', 'dashboard-host': '0.0.0.0' } } }, 'a84ce8d1ef496a2b'],
    ['no worker groups', { ...base, workerGroupSpecs: [] }, '945960c1ec1d07e8'],
  ])('stays what it was for %s', (_name, spec, digest) => {
    expect(clusterSpecHash(spec as typeof base)).toBe(digest);
  });
});
