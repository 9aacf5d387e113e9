// Writes the generated CRDs to packages/core/crds. All logic is in src/crd (pure); this only does the I/O.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCrdFiles } from '../src/crd/render-yaml.ts';

const outDir = join(import.meta.dirname, '..', 'crds');
for (const [name, text] of Object.entries(generateCrdFiles())) {
  writeFileSync(join(outDir, name), text);
  console.log(`wrote ${join('crds', name)}`);
}
