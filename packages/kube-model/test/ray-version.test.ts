import { describe, expect, it } from 'vitest';
import { compareRayVersions, parseRayVersion } from '../src/index.ts';

describe('Ray versions', () => {
  it.each([
    ['2.58.0', '2.54.0', 1],
    ['2.9.0', '2.10.0', -1],
    ['2.8', '2.8.0', 0],
    ['3.0.0.dev0', '2.58.0', 1],
    ['2.10.0rc1', '2.9.9', 1],
    ['nightly', '2.58.0', 1],
    ['2.58.0', 'nightly', -1],
    ['nightly', 'main', 0],
    ['2.58', '2.58.1', -1],
    ['v2.41.0', '2.41', 0],
  ])('compares %s with %s as %i (unreadable sorts newest)', (a, b, expected) => {
    expect(compareRayVersions(a, b)).toBe(expected);
  });

  it.each([
    ['2.58.0', [2, 58, 0]],
    [' 2.9 ', [2, 9, 0]],
    ['3.0.0.dev0', [3, 0, 0]],
    ['nightly', null],
    ['v2.9', [2, 9, 0]],
    ['2', [2, 0, 0]],
    ['2.10.0rc1', [2, 10, 0]],
    ['rayproject/ray:2.41.0-py311', [2, 41, 0]],
    ['2.58.0.1', [2, 58, 0]],
    ['99999999999999999', null],
    ['', null],
  ])('reads %j as %j', (text, want) => {
    expect(parseRayVersion(text)).toEqual(want);
  });
});
