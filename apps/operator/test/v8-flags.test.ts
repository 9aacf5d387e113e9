// RAYJOB_V8_FLAGS (the chart's v8Flags): V8 flags node refuses in NODE_OPTIONS, applied by the operator at start.
import { describe, expect, it } from 'vitest';
import { applyV8Flags, parseV8Flags } from '../src/runtime/v8-flags.ts';

describe('RAYJOB_V8_FLAGS', () => {
  it.each([
    { text: undefined, flags: [] },
    { text: '', flags: [] },
    { text: '--optimize-for-size', flags: ['--optimize-for-size'] },
    { text: '  --optimize-for-size   --heap-growing-percent=20 ', flags: ['--optimize-for-size', '--heap-growing-percent=20'] },
  ])('$text -> $flags', ({ text, flags }) => {
    expect(parseV8Flags(text)).toEqual({ ok: true, flags });
  });

  it.each(['optimize-for-size', '--optimize-for-size;rm', '"--optimize-for-size"', '--Bad'])('refuses %s, naming the variable and the form', (text) => {
    const result = parseV8Flags(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^RAYJOB_V8_FLAGS: .* is not a V8 flag \(--name or --name=value/);
  });

  it('applies each flag, and none when one is bad', () => {
    const set: string[] = [];
    expect(applyV8Flags({ RAYJOB_V8_FLAGS: '--optimize-for-size --heap-growing-percent=20' }, (f) => set.push(f)).ok).toBe(true);
    expect(set).toEqual(['--optimize-for-size', '--heap-growing-percent=20']);
    expect(applyV8Flags({ RAYJOB_V8_FLAGS: '--optimize-for-size x' }, (f) => set.push(f)).ok).toBe(false);
    expect(set).toHaveLength(2);
  });
});
