import { describe, expect, it } from 'vitest';
import { imageRepository, parseImageReference } from '../src/index.ts';

describe('image references', () => {
  it.each([
    ['busybox', { repository: 'busybox' }],
    ['rayproject/ray:2.58.0', { repository: 'rayproject/ray', tag: '2.58.0' }],
    ['localhost:5000/ray', { repository: 'localhost:5000/ray' }],
    ['localhost:5000/rayproject/ray:2.58.0-py311', { repository: 'localhost:5000/rayproject/ray', tag: '2.58.0-py311' }],
    ['ghcr.io/rayjob/submitter@sha256:0123abcd', { repository: 'ghcr.io/rayjob/submitter', digest: 'sha256:0123abcd' }],
    ['ghcr.io/rayjob/submitter:v1@sha256:0123abcd', { repository: 'ghcr.io/rayjob/submitter', tag: 'v1', digest: 'sha256:0123abcd' }],
    ['registry:5000/team/app:1@sha256:ff', { repository: 'registry:5000/team/app', tag: '1', digest: 'sha256:ff' }],
  ])('%s splits into repository, tag and digest', (image, want) => {
    expect(parseImageReference(image)).toEqual(want);
  });

  it('the repository of a digest reference has no digest (the digest\'s "sha256:" is not a tag)', () => {
    // A parser that looks for the last ':' without cutting the digest first answers "…/submitter@sha256".
    expect(imageRepository('ghcr.io/rayjob/submitter@sha256:0123abcd')).toBe('ghcr.io/rayjob/submitter');
    expect(imageRepository('localhost:5000/submitter@sha256:0123abcd')).toBe('localhost:5000/submitter');
  });
});
