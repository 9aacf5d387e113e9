// The image's ESM bundle: node 24, minified, no inline source map. The banner gives bundled CommonJS
// dependencies a `require` (ecosystem.md §3.4). `@rayjob/source` lets esbuild read workspace packages' source.
// Code splitting: dist/submitter.mjs is the entry and holds only what --help and --version need; the run path
// (zod, yaml, the Ray client), imported dynamically by main.ts, lives in dist/chunks/ and is loaded only by a run.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// @rayjob/core is pure by rule (no I/O, no top-level side effects), but its package.json does not say so, and
// its barrel would otherwise pull every zod schema of the RayJob CRD into the bundle and build them at start.
// Marking workspace sources side-effect free lets esbuild keep only what the submitter uses.
function workspaceModulesArePure() {
  const packagesDir = join(here, '..', '..', 'packages') + '/';
  return {
    name: 'workspace-modules-are-pure',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'pure-check' || args.kind === 'entry-point') return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'pure-check' });
        if (resolved.errors.length > 0 || !resolved.path.startsWith(packagesDir)) return undefined;
        return { path: resolved.path, sideEffects: false };
      });
    },
  };
}

// ws (the log tail's WebSocket) requires node:https and node:tls at load, though it uses them only for a wss://
// address: ~8 MiB of RSS for every submitter of an http:// dashboard (issue #27). In the bundle, each of those
// requires becomes an object that loads the built-in on first use. The build fails if ws's text changes, so
// the rewrite cannot silently stop applying.
function wsLoadsTlsOnlyForWss() {
  const lazy = (name) => `new Proxy({}, { get: (_, key) => process.getBuiltinModule('node:${name}')[key] })`;
  return {
    name: 'ws-loads-tls-only-for-wss',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]ws[\\/]lib[\\/]websocket\.js$/ }, async (args) => {
        let text = await readFile(args.path, 'utf8');
        for (const name of ['https', 'tls']) {
          const eager = `const ${name} = require('${name}');`;
          if (!text.includes(eager)) throw new Error(`${args.path}: expected "${eager}" (ws changed: update ${fileURLToPath(import.meta.url)})`);
          text = text.replace(eager, `const ${name} = ${lazy(name)};`);
        }
        return { contents: text, loader: 'js' };
      });
    },
  };
}

const outdir = process.env.SUBMITTER_BUNDLE_OUT_DIR ?? join(here, 'dist');

// A fresh directory: chunk names carry content hashes, and an old chunk left beside the new ones would ship.
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { submitter: join(here, 'src', 'main.ts') },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  conditions: ['@rayjob/source'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [workspaceModulesArePure(), wsLoadsTlsOnlyForWss()],
});
