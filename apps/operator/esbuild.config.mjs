// One ESM bundle for the operator image: node 24, minified. Entry = src/main.ts (src/ imports no dev
// package such as the sandbox: tools/check-structure.mjs enforces it). The banner gives bundled CommonJS dependencies
// (@kubernetes/client-node, prom-client) a `require`; `@rayjob/source` lets esbuild read workspace sources.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = process.env.OPERATOR_BUNDLE_OUT ?? join(here, 'dist', 'operator.mjs');

await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  outfile,
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  conditions: ['@rayjob/source'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});
