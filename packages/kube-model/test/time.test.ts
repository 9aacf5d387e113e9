import { describe, expect, it } from 'vitest';
import { formatKubeTime, formatMicroTime, parseKubeTime } from '../src/index.ts';

const at = Date.parse('2026-01-02T03:04:05.678Z');

describe('metav1 times', () => {
  it('a Time has whole seconds, from a Date or epoch milliseconds', () => {
    expect(formatKubeTime(at)).toBe('2026-01-02T03:04:05Z');
    expect(formatKubeTime(new Date(at))).toBe('2026-01-02T03:04:05Z');
  });

  it('a MicroTime has exactly six fractional digits (the API server refuses three)', () => {
    expect(formatMicroTime(at)).toBe('2026-01-02T03:04:05.678000Z');
    expect(formatMicroTime(Date.parse('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000000Z');
  });

  it.each([
    ['2026-01-02T03:04:05Z', at - 678],
    ['2026-01-02T03:04:05.678000Z', at],
    ['', undefined],
    [undefined, undefined],
    [null, undefined],
    ['not a time', undefined],
  ])('reading %j leniently gives %j', (text, ms) => {
    expect(parseKubeTime(text)?.getTime()).toBe(ms);
  });
});
