// A small CEL evaluator for the subset CRD validation rules use: literals (string, int, double, bool,
// null, lists), field access, indexing, has(), size(), `in`, ==, !=, <, <=, >, >=, !, &&, ||, ?:, + - * / %,
// string methods (startsWith, endsWith, contains, matches), and the all/exists/exists_one macros.
// Absent fields raise "no such key", as in CEL; && and || absorb errors the way CEL's commutative logic does.
// Parsing lives in cel-parser.ts; this file evaluates the parsed tree.

import { CelError, parseProgram, type CelNode as Node } from './cel-parser.ts';

export { CelError };

type Env = Record<string, unknown>;

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  }
  return v;
}

function sizeOf(v: unknown): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  throw new CelError(`no such overload: size(${typeof v})`);
}

function field(obj: unknown, name: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || !(name in obj)) throw new CelError(`no such key: ${name}`);
  return (obj as Record<string, unknown>)[name];
}

function evalNode(n: Node, env: Env): unknown {
  switch (n.t) {
    case 'lit':
      return n.v;
    case 'ident':
      if (!(n.name in env)) throw new CelError(`undeclared reference to '${n.name}'`);
      return env[n.name];
    case 'list':
      return n.items.map((x) => evalNode(x, env));
    case 'member':
      return field(evalNode(n.obj, env), n.name);
    case 'index': {
      const obj = evalNode(n.obj, env);
      const idx = evalNode(n.index, env);
      if (Array.isArray(obj)) {
        if (typeof idx !== 'number' || idx < 0 || idx >= obj.length) throw new CelError(`index out of bounds: ${String(idx)}`);
        return obj[idx];
      }
      return field(obj, String(idx));
    }
    case 'unary': {
      const v = evalNode(n.x, env);
      if (n.op === '!') {
        if (typeof v !== 'boolean') throw new CelError('no such overload: !');
        return !v;
      }
      if (typeof v !== 'number') throw new CelError('no such overload: -');
      return -v;
    }
    case 'cond':
      return evalNode(n.c, env) === true ? evalNode(n.a, env) : evalNode(n.b, env);
    case 'binary':
      return evalBinary(n.op, n.l, n.r, env);
    case 'call':
      return evalCall(n, env);
  }
}

function tryEval(n: Node, env: Env): { v?: unknown; err?: Error } {
  try {
    return { v: evalNode(n, env) };
  } catch (e) {
    return { err: e as Error };
  }
}

function evalBinary(op: string, ln: Node, rn: Node, env: Env): unknown {
  if (op === '&&' || op === '||') {
    const stop = op === '||';
    const l = tryEval(ln, env);
    if (l.v === stop) return stop;
    const r = tryEval(rn, env);
    if (r.v === stop) return stop;
    if (l.err) throw l.err;
    if (r.err) throw r.err;
    return !stop;
  }
  const l = evalNode(ln, env);
  const r = evalNode(rn, env);
  switch (op) {
    case '==':
      return equal(l, r);
    case '!=':
      return !equal(l, r);
    case 'in':
      if (Array.isArray(r)) return r.some((x) => equal(x, l));
      if (r !== null && typeof r === 'object') return String(l) in r;
      throw new CelError('no such overload: in');
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (typeof l !== typeof r || (typeof l !== 'number' && typeof l !== 'string')) throw new CelError(`no such overload: ${op}`);
      const a = l as number;
      const b = r as number;
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
    case '+':
      if (typeof l === 'number' && typeof r === 'number') return l + r;
      if (typeof l === 'string' && typeof r === 'string') return l + r;
      if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
      throw new CelError('no such overload: +');
    default: {
      if (typeof l !== 'number' || typeof r !== 'number') throw new CelError(`no such overload: ${op}`);
      if ((op === '/' || op === '%') && r === 0) throw new CelError(op === '/' ? 'division by zero' : 'modulus by zero');
      if (op === '-') return l - r;
      if (op === '*') return l * r;
      if (op === '/') return Number.isInteger(l) && Number.isInteger(r) ? Math.trunc(l / r) : l / r;
      return l % r;
    }
  }
}

function evalCall(n: Extract<Node, { t: 'call' }>, env: Env): unknown {
  if (n.fn === 'has' && !n.target) {
    const arg = n.args[0];
    if (!arg || arg.t !== 'member') throw new CelError('invalid argument to has() macro');
    const obj = evalNode(arg.obj, env);
    return obj !== null && typeof obj === 'object' && !Array.isArray(obj) && arg.name in obj;
  }
  if ((n.fn === 'all' || n.fn === 'exists' || n.fn === 'exists_one' || n.fn === 'filter' || n.fn === 'map') && n.target) {
    const varNode = n.args[0];
    const body = n.args[1];
    if (!varNode || varNode.t !== 'ident' || !body) throw new CelError(`invalid ${n.fn}() macro`);
    const target = evalNode(n.target, env);
    const items = Array.isArray(target) ? target : target !== null && typeof target === 'object' ? Object.keys(target) : undefined;
    if (!items) throw new CelError(`no such overload: ${n.fn}`);
    const results = items.map((item) => evalNode(body, { ...env, [varNode.name]: item }));
    if (n.fn === 'all') return results.every((r) => r === true);
    if (n.fn === 'exists') return results.some((r) => r === true);
    if (n.fn === 'exists_one') return results.filter((r) => r === true).length === 1;
    if (n.fn === 'filter') return items.filter((_, i) => results[i] === true);
    return results;
  }
  const args = n.args.map((a) => evalNode(a, env));
  const target = n.target ? evalNode(n.target, env) : undefined;
  switch (n.fn) {
    case 'size':
      return sizeOf(n.target ? target : args[0]);
    case 'startsWith':
      return String(target).startsWith(String(args[0]));
    case 'endsWith':
      return String(target).endsWith(String(args[0]));
    case 'contains':
      return String(target).includes(String(args[0]));
    case 'matches':
      return new RegExp(String(args[0])).test(String(n.target ? target : args[0]));
    case 'lowerAscii':
      return String(target).toLowerCase();
    case 'upperAscii':
      return String(target).toUpperCase();
    case 'int':
      return Math.trunc(Number(args[0]));
    case 'double':
      return Number(args[0]);
    case 'string':
      return String(args[0]);
    default:
      throw new CelError(`undeclared reference to '${n.fn}'`);
  }
}

const programs = new Map<string, Node>();

/** Evaluate a rule with the given variables (self, oldSelf). Throws CelError on syntax or runtime errors. */
export function evaluateCel(rule: string, env: Env): unknown {
  let program = programs.get(rule);
  if (!program) {
    program = parseProgram(rule);
    programs.set(rule, program);
  }
  return evalNode(program, env);
}

/** Compile-check a rule (CRD creation rejects rules that do not parse). */
export function checkCelSyntax(rule: string): string | undefined {
  try {
    parseProgram(rule);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
