import { describe, expect, it } from 'vitest';
import { semanticEqual } from '../src/index.ts';

describe('semantic equality', () => {
  it.each([
    ['key order does not matter', { a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, true],
    ['an absent key equals an undefined one', { a: 1, b: undefined }, { a: 1 }, true],
    ['array order matters', [1, 2], [2, 1], false],
    ['a changed leaf is a change', { a: { b: 'x' } }, { a: { b: 'y' } }, false],
    ['an added key is a change', { a: 1 }, { a: 1, b: null }, false],
    ['an array is not an object', [], {}, false],
    ['null is not an empty object', null, {}, false],
  ])('%s', (_name, a, b, equal) => {
    expect(semanticEqual(a, b)).toBe(equal);
    expect(semanticEqual(b, a)).toBe(equal);
  });
});
