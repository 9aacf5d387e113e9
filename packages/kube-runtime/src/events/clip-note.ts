// The API server measures an events.k8s.io note in bytes of UTF-8 (Go's len), not in JavaScript's UTF-16 units:
// a 1000-character note in Japanese is ~3 KB and answers 422. Clipping keeps whole code points, so a note never
// ends in half a character (which would be invalid UTF-8 on the wire).
const encoder = new TextEncoder();

/** events.k8s.io/v1 validation: note must be no more than 1 KiB. */
export const EVENT_NOTE_MAX_BYTES = 1024;

export function clipToBytes(text: string, maxBytes: number, marker = '...'): string {
  if (encoder.encode(text).length <= maxBytes) return text;
  const budget = maxBytes - encoder.encode(marker).length;
  let used = 0;
  let end = 0;
  for (const ch of text) {
    // A code point is 1-4 bytes; a lone surrogate encodes as U+FFFD (3 bytes), as TextEncoder sends it.
    const size = encoder.encode(ch).length;
    if (used + size > budget) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end) + marker;
}
