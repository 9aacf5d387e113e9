// The JSON KubeRay's flags carry (--runtime-env-json, --metadata-json) is Go's encoding/json of a map: keys sorted
// as strings at every level, compact.
import { describe, expect, it } from 'vitest';
import { sortedJson } from '../../src/builders/sorted-json.ts';

describe('sortedJson writes maps as Go does', () => {
  it.each([
    ['keys sorted at every level', { b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } }, '{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}'],
    ['undefined fields left out', { a: undefined, b: null }, '{"b":null}'],
    // Go sorts map keys as strings ("10" < "9"); a plain JS object puts integer-like keys first in numeric order.
    ['integer-like keys sorted as strings', { '9': 'nine', '10': 'ten', a: 1 }, '{"10":"ten","9":"nine","a":1}'],
    ['non-ASCII keys by code unit', { é: 1, e: 2, E: 3 }, '{"E":3,"e":2,"é":1}'],
  ])('%s', (_name, value, want) => {
    expect(sortedJson(value)).toBe(want);
  });
});
