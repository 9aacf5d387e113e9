// The one redactor (the client's errors and the submitter's output both use it).
import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../src/index.ts';

describe('redactor', () => {
  it.each([
    ['the secret as written', ['tok-abc123'], 'Authorization: Bearer tok-abc123', 'Authorization: Bearer [redacted]'],
    // JSON-escaped forms (a JSON log line, an echoed header object, a JSON error body): the client's copy once missed these.
    ['a JSON-escaped secret (quote)', ['pa"ss"word'], '{"token":"pa\\"ss\\"word"}', '{"token":"[redacted]"}'],
    ['a JSON-escaped secret (backslash)', ['dom\\user:pw'], '{"auth":"dom\\\\user:pw"}', '{"auth":"[redacted]"}'],
    ['a secret that contains another is hidden whole', ['abcd', 'abcdefgh'], 'x abcdefgh y abcd', 'x [redacted] y [redacted]'],
    ['values under 4 characters are not secrets (they would mangle text)', ['1', 'ab'], 'a1b ab', 'a1b ab'],
    ['undefined secrets are skipped', [undefined, 'sekrit'], 'sekrit!', '[redacted]!'],
  ])('%s', (_name, secrets, text, want) => {
    expect(makeRedactor(secrets)(text)).toBe(want);
  });
});
