import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCrdFiles } from '../../src/crd/render-yaml.ts';

// CI guard: the committed CRDs must be exactly what the schemas generate. Fix: `npx nx run core:crd-generate`.
const crdDir = join(import.meta.dirname, '..', '..', 'crds');

describe('committed CRD YAML', () => {
  it.each(Object.entries(generateCrdFiles()).map(([file, text]) => ({ file, text })))('crds/$file is up to date', ({ file, text }) => {
    const committed = readFileSync(join(crdDir, file), 'utf8');
    expect(committed, `crds/${file} is stale: run \`npx nx run core:crd-generate\` and commit the result`).toBe(text);
  });
});
