// One ESM bundle for the image: node 24, minified, no inline source map. The banner gives bundled CommonJS
// dependencies a `require` (ecosystem.md §3.4). `@rayjob/source` lets esbuild read workspace packages' source.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = process.env.SUBMITTER_BUNDLE_OUT ?? join(here, 'dist', 'submitter.mjs');

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
