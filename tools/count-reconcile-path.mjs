#!/usr/bin/env node
// Counts the source files one reconcile can run: the runtime (non-type) import closure from a controller's
// controller.ts plus kube-runtime's informer and controller loop, each imported name followed to the file that
// declares it (not to a package's barrel), grouped by package. What reaches the controller by injection (the
// manager's client and status writer) is not an import and is not counted. Used for issue #21's before/after
// numbers: `node tools/count-reconcile-path.mjs [controller.ts] [-v]`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const verbose = args.includes('-v');
const controller = args.find((a) => a !== '-v') ?? 'apps/operator/src/controllers/rayjob/controller.ts';
const starts = [controller, 'packages/kube-runtime/src/informer/informer.ts', 'packages/kube-runtime/src/controller/controller.ts'].map((f) => path.join(root, f));
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'apps/operator/tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: starts, options: { ...config.options, noEmit: true, composite: false, declaration: false, emitDeclarationOnly: false } });
const checker = program.getTypeChecker();

/** The workspace files a file's value imports come from. */
function importedFiles(sourceFile) {
  const found = [];
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const bindings = statement.importClause?.namedBindings;
    const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name) : [];
    if (statement.importClause?.name) names.push(statement.importClause.name);
    for (const name of names) {
      let symbol = checker.getSymbolAtLocation(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      if (!declaration || !(symbol.flags & ts.SymbolFlags.Value)) continue; // a type costs no runtime file
      const file = ts.sys.realpath?.(declaration.getSourceFile().fileName) ?? declaration.getSourceFile().fileName;
      if (file.startsWith(root) && !file.includes('/node_modules/')) found.push(file);
    }
  }
  return found;
}

const seen = new Set();
const queue = [...starts];
while (queue.length > 0) {
  const file = queue.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const sourceFile = program.getSourceFile(file);
  if (sourceFile) queue.push(...importedFiles(sourceFile));
}
const files = [...seen].map((f) => path.relative(root, f)).sort();
const byPackage = new Map();
for (const file of files) {
  const pkg = file.split('/').slice(0, 2).join('/');
  byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), file]);
}
for (const [pkg, list] of byPackage) {
  console.log(`${pkg}: ${list.length}`);
  if (verbose) for (const file of list) console.log(`  ${file}`);
}
console.log(`total: ${files.length}`);
