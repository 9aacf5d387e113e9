// The CEL subset CRD rules use, evaluated directly.
import { describe, expect, it } from 'vitest';
import { checkCelSyntax, evaluateCel } from '../../src/apiserver/schema/cel.ts';

const self = { a: 1, s: 'ray.io/x', list: [1, 2, 3], obj: { b: true }, name: 'abc' };

describe('evaluateCel', () => {
  it.each([
    ['has(self.a)', true],
    ['has(self.missing)', false],
    ['!has(self.missing) || self.missing == 1', true],
    ['self.a == 1 && self.obj.b', true],
    ['self.a != 1', false],
    ["self.s in ['ray.io/x', 'kueue']", true],
    ["self.s in ['kueue']", false],
    ['size(self.list) == 3', true],
    ['self.list.size() > 2', true],
    ["self.name.startsWith('ab') && self.name.endsWith('c') && self.name.contains('b')", true],
    ["self.name.matches('^[a-c]+$')", true],
    ['self.list.all(x, x > 0)', true],
    ['self.list.exists(x, x == 2)', true],
    ['self.list.exists_one(x, x > 1)', false],
    ['self.a + 2 * 3 == 7', true],
    ['self.a > 0 ? true : false', true],
    ['!(self.a == 2)', true],
    ['self.list[1] == 2', true],
    ['self.obj == self.obj', true],
  ])('%s -> %s', (rule, expected) => {
    expect(evaluateCel(rule, { self })).toBe(expected);
  });

  it.each([
    ['self == oldSelf', 'x', 'x', true],
    ['self == oldSelf', 'x', 'y', false],
  ])('transition rule %s with self=%s oldSelf=%s -> %s', (rule, s, o, expected) => {
    expect(evaluateCel(rule, { self: s, oldSelf: o })).toBe(expected);
  });

  it.each([
    ['self.missing == 1', /no such key: missing/],
    ['oldSelf == 1', /undeclared reference to 'oldSelf'/],
    ['self.a ==', /Syntax error/],
  ])('%s raises %s', (rule, message) => {
    expect(() => evaluateCel(rule, { self })).toThrow(message);
  });

  it('absorbs an error on one side of || when the other side decides', () => {
    expect(evaluateCel('self.missing == 1 || true', { self })).toBe(true);
    expect(evaluateCel('self.missing == 1 && false', { self })).toBe(false);
  });

  it('reports syntax errors without evaluating', () => {
    expect(checkCelSyntax('has(self.a')).toMatch(/Syntax error/);
    expect(checkCelSyntax('has(self.a)')).toBeUndefined();
  });
});
