// The parser of the sandbox's CEL subset (cel.ts evaluates): a tokenizer and a recursive descent over a cursor, one
// small function per grammar level (ternary, binary by precedence climbing, postfix member/index/call, primary).

export type CelNode =
  | { t: 'lit'; v: unknown }
  | { t: 'ident'; name: string }
  | { t: 'list'; items: CelNode[] }
  | { t: 'member'; obj: CelNode; name: string }
  | { t: 'index'; obj: CelNode; index: CelNode }
  | { t: 'call'; fn: string; target?: CelNode; args: CelNode[] }
  | { t: 'unary'; op: string; x: CelNode }
  | { t: 'binary'; op: string; l: CelNode; r: CelNode }
  | { t: 'cond'; c: CelNode; a: CelNode; b: CelNode };

type Node = CelNode;

export class CelError extends Error {}

const tokenRe = /\s*(?:(\d+\.\d+|\d+)(u)?|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|([A-Za-z_][A-Za-z0-9_]*)|(==|!=|<=|>=|&&|\|\||[-+*/%<>!?:.,()[\]{}]))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  tokenRe.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    tokenRe.lastIndex = pos;
    const m = tokenRe.exec(src);
    if (!m) throw new CelError(`Syntax error: unexpected character at ${pos} in ${JSON.stringify(src)}`);
    out.push((m[1] ?? m[3] ?? m[4] ?? m[5]) as string);
    pos = tokenRe.lastIndex;
  }
  return out;
}

const precedence: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 3, '<=': 3, '>': 3, '>=': 3, in: 3, '+': 4, '-': 4, '*': 5, '/': 5, '%': 5 };

/** The tokens of one expression and the position of the next one to read. */
interface Cursor {
  src: string;
  toks: string[];
  i: number;
}

const peek = (c: Cursor): string | undefined => c.toks[c.i];

function next(c: Cursor): string {
  const t = c.toks[c.i++];
  if (t === undefined) throw new CelError(`Syntax error: unexpected end of expression in ${JSON.stringify(c.src)}`);
  return t;
}

function expect(c: Cursor, t: string): void {
  const got = next(c);
  if (got !== t) throw new CelError(`Syntax error: expected '${t}', got '${got}' in ${JSON.stringify(c.src)}`);
}

/** A comma-separated list of expressions up to `close` (the opening bracket is already read). */
function parseArgs(c: Cursor, close: string): Node[] {
  const out: Node[] = [];
  if (peek(c) === close) {
    next(c);
    return out;
  }
  for (;;) {
    out.push(parseExpr(c));
    const t = next(c);
    if (t === close) return out;
    if (t !== ',') throw new CelError(`Syntax error: expected ',' or '${close}' in ${JSON.stringify(c.src)}`);
  }
}

function parsePrimary(c: Cursor): Node {
  const t = next(c);
  if (t === '(') {
    const e = parseExpr(c);
    expect(c, ')');
    return e;
  }
  if (t === '[') return { t: 'list', items: parseArgs(c, ']') };
  if (t === '!' || t === '-') return { t: 'unary', op: t, x: parsePostfix(c, parsePrimary(c)) };
  if (/^\d/.test(t)) return { t: 'lit', v: Number(t) };
  if (t[0] === '"' || t[0] === "'") return { t: 'lit', v: JSON.parse(t[0] === "'" ? `"${t.slice(1, -1).replace(/"/g, '\\"')}"` : t) };
  if (t === 'true' || t === 'false') return { t: 'lit', v: t === 'true' };
  if (t === 'null') return { t: 'lit', v: null };
  if (/^[A-Za-z_]/.test(t)) {
    if (peek(c) === '(') {
      next(c);
      return { t: 'call', fn: t, args: parseArgs(c, ')') };
    }
    return { t: 'ident', name: t };
  }
  throw new CelError(`Syntax error: unexpected '${t}' in ${JSON.stringify(c.src)}`);
}

/** Member access, method calls and indexing after a primary. */
function parsePostfix(c: Cursor, n: Node): Node {
  for (;;) {
    if (peek(c) === '.') {
      next(c);
      const name = next(c);
      if (peek(c) === '(') {
        next(c);
        n = { t: 'call', fn: name, target: n, args: parseArgs(c, ')') };
      } else n = { t: 'member', obj: n, name };
    } else if (peek(c) === '[') {
      next(c);
      const index = parseExpr(c);
      expect(c, ']');
      n = { t: 'index', obj: n, index };
    } else return n;
  }
}

/** Binary operators by precedence climbing: operators binding at least `minPrec`. */
function parseBinary(c: Cursor, minPrec: number): Node {
  let left = parsePostfix(c, parsePrimary(c));
  for (;;) {
    const op = peek(c);
    const p = op === undefined ? undefined : precedence[op];
    if (p === undefined || p < minPrec) return left;
    next(c);
    const right = parseBinary(c, p + 1);
    left = { t: 'binary', op: op as string, l: left, r: right };
  }
}

/** An expression, with the ternary `?:` binding loosest. */
function parseExpr(c: Cursor): Node {
  const cond = parseBinary(c, 1);
  if (peek(c) !== '?') return cond;
  next(c);
  const a = parseExpr(c);
  expect(c, ':');
  const b = parseExpr(c);
  return { t: 'cond', c: cond, a, b };
}

export function parseProgram(src: string): Node {
  const c: Cursor = { src, toks: tokenize(src), i: 0 };
  const root = parseExpr(c);
  if (c.i < c.toks.length) throw new CelError(`Syntax error: unexpected '${c.toks[c.i]}' in ${JSON.stringify(src)}`);
  return root;
}
