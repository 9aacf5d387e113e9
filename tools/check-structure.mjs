#!/usr/bin/env node
// Part of `npm run lint`: the structure rules the code base keeps (issue #21). Prints every violation; exit 1 if any.
//   - no import cycle between files, nor between folders (relative imports, and workspace packages by name);
//   - apps' production sources (apps/*/src) import no dev package (fakes, dev glue, test helpers);
//   - no source file over MAX_FILE_LINES lines, no function over MAX_FUNCTION_LINES lines.
// An exception is named in the file itself, with its reason, by a marker comment:
//   // structure-exception(file-lines): <reason>
//   // structure-exception(function-lines NAME): <reason>         (NAME as reported: `foo`, `Class.method`, ...)
//   // structure-exception(cycle): <reason>                       (any file of a file cycle)
//   // structure-exception(folder-cycle): <reason>                (any file of the folder cycle that imports across it)
//   // structure-exception(dev-import): <reason>
// A marker without a reason (at least a few words) is itself a violation, and so is one that excuses nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The repository root; `--root DIR` checks another tree (the check's own test runs it on fixtures).
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag > 0 ? resolve(process.argv[rootFlag + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['packages', 'apps', 'e2e', 'tools'];
const skip = new Set(['node_modules', 'dist', 'out-tsc', 'coverage', '.nx']);
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
/** Dev-only packages: fakes, dev glue and test helpers. A product must never ship them. */
const DEV_PACKAGES = ['@rayjob/ray-emulator', '@rayjob/sandbox', '@rayjob/test-support', '@rayjob/ray-conformance', '@rayjob/e2e', '@rayjob/dev-cluster'];
const markerRe = /^[ \t]*\/\/[ \t]*structure-exception\(([a-z-]+)(?:[ \t]+([^)\s]+))?\)[ \t]*:?[ \t]*(.*)$/gm;

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const files = roots.flatMap((r) => { try { return [...sources(join(root, r))]; } catch { return []; } });
const problems = [];
const rel = (f) => relative(root, f);

// Markers per file: kind -> [{ name, reason, line, used }].
const markers = new Map();
function markersOf(file, text) {
  const list = [];
  for (const m of text.matchAll(markerRe)) {
    const line = text.slice(0, m.index).split('\n').length;
    const reason = (m[3] ?? '').replace(/\*\/\s*$/, '').trim();
    const marker = { kind: m[1], name: m[2], reason, line, used: false };
    list.push(marker);
    if (!['file-lines', 'function-lines', 'cycle', 'folder-cycle', 'dev-import'].includes(marker.kind)) problems.push(`${rel(file)}:${line}: unknown structure-exception kind "${marker.kind}"`);
    else if (reason.split(/\s+/).filter(Boolean).length < 3) problems.push(`${rel(file)}:${line}: structure-exception(${marker.kind}) needs a reason (a few words after the colon)`);
  }
  markers.set(file, list);
}
const excused = (file, kind, name) => {
  const found = (markers.get(file) ?? []).find((m) => m.kind === kind && (name === undefined || m.name === name));
  if (found) found.used = true;
  return found !== undefined;
};

// Workspace packages by name -> their entry file, so `@rayjob/x` imports count as edges too.
const packageEntries = new Map();
for (const base of ['packages', 'apps', 'e2e']) {
  let dirs;
  try { dirs = base === 'e2e' ? [join(root, 'e2e')] : readdirSync(join(root, base)).map((d) => join(root, base, d)); } catch { continue; }
  for (const dir of dirs) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const entry = typeof pkg.exports === 'string' ? pkg.exports : pkg.exports?.['.'];
      const target = typeof entry === 'string' ? entry : entry?.default ?? entry?.import;
      if (pkg.name && typeof target === 'string') packageEntries.set(pkg.name, resolve(dir, target));
    } catch { /* not a package */ }
  }
}

/** A function's name as reported and as a marker names it. */
function functionName(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) {
    const cls = node.parent && (ts.isClassDeclaration(node.parent) || ts.isClassExpression(node.parent)) && node.parent.name ? `${node.parent.name.text}.` : '';
    return `${cls}${node.name.text}`;
  }
  if (ts.isConstructorDeclaration(node)) return `${node.parent.name?.text ?? 'class'}.constructor`;
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && (ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (p && ts.isCallExpression(p)) {
    const callee = p.expression.getText(sf).replace(/\s+/g, '');
    const first = p.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${JSON.stringify(first.text)}` : '';
    return `${callee}(${label.trim()})`.replace('()', '(...)');
  }
  if (p && ts.isNewExpression(p)) return `new-${p.expression.getText(sf)}`;
  // Otherwise named after the function around it, so a marker's name does not move with line numbers.
  for (let up = p; up; up = up.parent) if (ts.isFunctionLike(up) && up !== node) return `${functionName(up, sf)}>anonymous`;
  return '<anonymous>';
}

/** Test-framework grouping callbacks (describe blocks) are containers, not functions. */
const isGroupingCallback = (node) => {
  const p = node.parent;
  return p && ts.isCallExpression(p) && /^(describe|suite)(\.(each|skip|only|concurrent|sequential|skipIf|runIf|todo))?$/.test(p.expression.getText().replace(/\s+/g, '').replace(/\(.*$/s, ''));
};

function checkFunctions(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && !isGroupingCallback(node)) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = functionName(node, sf);
        if (!excused(file, 'function-lines', name)) problems.push(`${rel(file)}:${start}: function ${name} has ${lines} lines (at most ${MAX_FUNCTION_LINES})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const isAppSource = (file) => /^apps\/[^/]+\/src\//.test(rel(file).split(sep).join('/'));
const importRe = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  markersOf(file, text);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES && !excused(file, 'file-lines')) problems.push(`${rel(file)}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  checkFunctions(file, text);
  const edges = [];
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (isAppSource(file) && DEV_PACKAGES.some((d) => spec === d || spec.startsWith(`${d}/`)) && !excused(file, 'dev-import')) {
      problems.push(`${rel(file)}: imports the dev package ${spec}: apps' production sources (src/) must not (move the code to a dev package, test/ or bench/)`);
    }
    // Type-only imports cannot form a runtime cycle, but they still tangle modules: count them too.
    if (m[3] !== undefined) continue; // a dynamic import() is a deliberate lazy edge, not a static cycle
    if (spec.startsWith('.')) edges.push(resolve(dirname(file), spec));
    else if (packageEntries.has(spec)) edges.push(packageEntries.get(spec));
  }
  graph.set(file, edges.filter((e) => e !== file));
}

/** Tarjan's strongly connected components of a graph (Map node -> nodes); components with more than one node. */
function cycles(g) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const low = new Map();
  const found = [];
  const connect = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component);
    }
  };
  for (const v of g.keys()) if (!indices.has(v)) connect(v);
  return found;
}

for (const component of cycles(graph)) {
  if (component.some((f) => excused(f, 'cycle'))) continue;
  problems.push(`import cycle: ${component.map(rel).sort().join(' <-> ')}`);
}

// Folder level: an edge from a file's folder to the imported file's folder. A folder and the folders inside it are
// one family (a subfolder uses its parent's helpers and the parent re-exports it), so edges between a folder and
// its own ancestors or descendants do not count; two sibling folders that import each other do.
const related = (a, b) => a === b || a.startsWith(`${b}${sep}`) || b.startsWith(`${a}${sep}`);
const folderGraph = new Map();
const crossing = new Map(); // "from\0to" -> files making that edge
for (const [file, edges] of graph) {
  const from = dirname(file);
  if (!folderGraph.has(from)) folderGraph.set(from, new Set());
  for (const target of edges) {
    if (!graph.has(target)) continue;
    const to = dirname(target);
    if (related(from, to)) continue;
    folderGraph.get(from).add(to);
    const key = `${from}\0${to}`;
    if (!crossing.has(key)) crossing.set(key, new Set());
    crossing.get(key).add(file);
  }
}
for (const component of cycles(folderGraph)) {
  const inside = new Set(component);
  const edgeFiles = [...crossing].filter(([k]) => { const [a, b] = k.split('\0'); return inside.has(a) && inside.has(b); }).flatMap(([, fs]) => [...fs]);
  if (edgeFiles.some((f) => excused(f, 'folder-cycle'))) continue;
  problems.push(`folder cycle: ${component.map(rel).sort().join(' <-> ')} (through ${edgeFiles.map(rel).sort().join(', ')})`);
}

for (const [file, list] of markers) {
  for (const m of list) if (!m.used && m.reason.split(/\s+/).filter(Boolean).length >= 3) problems.push(`${rel(file)}:${m.line}: structure-exception(${m.kind}${m.name ? ` ${m.name}` : ''}) excuses nothing: remove it`);
}

if (problems.length > 0) {
  for (const p of problems) console.error(`check-structure: ${p}`);
  console.error(`check-structure: ${problems.length} violation(s)`);
  process.exit(1);
}
console.log(`check-structure: ${files.length} files: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}, no file or folder cycles, no dev package in apps' src/ (exceptions named in their files)`);
