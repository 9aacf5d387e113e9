// A List answer read item by item: each element of its top-level "items" is parsed on its own and handed over at
// once, so a page's items never exist together as parsed objects. An informer keeps a trimmed copy of each item;
// with the whole page parsed first, a 500-item page of Pods (~3 MB of objects) outlived V8's young generation and
// was promoted before it was trimmed, and old-space collections then reclaimed it: most of a restart's LIST phase
// was garbage collection. Parsed one by one, what an item drops dies young.
// The scan only finds where values begin and end (strings are skipped with indexOf); JSON.parse does the parsing,
// so what it accepts and rejects is JSON.parse's.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const malformed = (at: number): SyntaxError => new SyntaxError(`List answer: malformed JSON near position ${at}`);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index after the string that starts (with its quote) at `i`. */
function skipString(text: string, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) throw malformed(i);
    // Escaped when preceded by an odd number of backslashes.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The index after the value that starts at `i` (object, array, string or literal). */
function skipValue(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return skipString(text, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let end = i;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      end++;
    }
    if (end === i) throw malformed(i);
    return end;
  }
  let depth = 0;
  for (let at = i; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = skipString(text, at);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return at + 1;
    at++;
  }
  throw malformed(i);
}

/** Hands each element of the "items" array that starts (with its bracket) at `i` to onItem; returns the index after it. */
function eachElement(text: string, i: number, onItem: (item: unknown) => void): number {
  let at = skipSpace(text, i + 1);
  if (text.charCodeAt(at) === CLOSE_BRACKET) return at + 1;
  for (;;) {
    const end = skipValue(text, at);
    onItem(JSON.parse(text.slice(at, end)));
    at = skipSpace(text, end);
    const c = text.charCodeAt(at);
    if (c === CLOSE_BRACKET) return at + 1;
    if (c !== COMMA) throw malformed(at);
    at = skipSpace(text, at + 1);
  }
}

/**
 * Parses a List answer (`{"kind":..., "metadata":..., "items":[...]}`), handing each item to `onItem` as it is parsed.
 * Returns the rest of the answer with `items` empty (null or absent when the answer had it so).
 */
export function parseListItems(text: string, onItem: (item: unknown) => void): Record<string, unknown> {
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== OPEN_BRACE) return JSON.parse(text) as Record<string, unknown>;
  at = skipSpace(text, at + 1);
  while (at < text.length && text.charCodeAt(at) !== CLOSE_BRACE) {
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipSpace(text, keyEnd);
    if (text.charCodeAt(at) !== COLON) throw malformed(at);
    at = skipSpace(text, at + 1);
    if (key === 'items' && text.charCodeAt(at) === OPEN_BRACKET) {
      const end = eachElement(text, at, onItem);
      // Everything but the items, parsed by JSON.parse (it also rejects what the scan let through).
      return JSON.parse(`${text.slice(0, at)}[]${text.slice(end)}`) as Record<string, unknown>;
    }
    at = skipSpace(text, skipValue(text, at));
    if (text.charCodeAt(at) === COMMA) at = skipSpace(text, at + 1);
  }
  return JSON.parse(text) as Record<string, unknown>;
}
