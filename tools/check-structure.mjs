#!/usr/bin/env node
// Part of `npm run lint`: the structure rules the code base keeps — no source file over 500 lines and no import
// cycles between modules (relative imports, and workspace packages by name). Prints every violation; exit 1 if any.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['packages', 'apps', 'e2e', 'tools'];
const skip = new Set(['node_modules', 'dist', 'out-tsc', 'coverage', '.nx']);
const MAX_LINES = 500;

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

// Workspace packages by name -> their entry file, so `@rayjob/x` imports count as edges too.
const packageEntries = new Map();
for (const base of ['packages', 'apps', 'e2e']) {
  const dirs = base === 'e2e' ? [join(root, 'e2e')] : readdirSync(join(root, base)).map((d) => join(root, base, d));
  for (const dir of dirs) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const entry = typeof pkg.exports === 'string' ? pkg.exports : pkg.exports?.['.'];
      const target = typeof entry === 'string' ? entry : entry?.default ?? entry?.import;
      if (pkg.name && typeof target === 'string') packageEntries.set(pkg.name, resolve(dir, target));
    } catch { /* not a package */ }
  }
}

const importRe = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
const graph = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${relative(root, file)}: ${lines} lines (at most ${MAX_LINES})`);
  const edges = [];
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    // Type-only imports cannot form a runtime cycle, but they still tangle modules: count them too.
    if (spec.startsWith('.')) edges.push(resolve(dirname(file), spec));
    else if (packageEntries.has(spec)) edges.push(packageEntries.get(spec));
  }
  graph.set(file, edges.filter((e) => e !== file));
}

// Tarjan's strongly connected components: any component with more than one file is a cycle.
let index = 0;
const stack = [];
const onStack = new Set();
const indices = new Map();
const low = new Map();
function connect(v) {
  indices.set(v, index);
  low.set(v, index);
  index += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
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
    if (component.length > 1) problems.push(`import cycle: ${component.map((f) => relative(root, f)).sort().join(' <-> ')}`);
  }
}
for (const v of graph.keys()) if (!indices.has(v)) connect(v);

if (problems.length > 0) {
  for (const p of problems) console.error(`check-structure: ${p}`);
  process.exit(1);
}
console.log(`check-structure: ${files.length} files, none over ${MAX_LINES} lines, no import cycles`);
