// kube-model is the leaf every package imports: the lint rule in eslint.config.mjs keeps it free of I/O and of
// other workspace packages. This proves the rule bites and that the sources pass it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const eslint = new ESLint({ cwd: root });
const lint = async (code: string) => (await eslint.lintText(code, { filePath: join(root, 'packages/kube-model/src/probe.ts') }))[0]?.messages ?? [];

describe('kube-model stays a pure leaf', () => {
  it.each([
    "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;",
    "import { request } from 'undici';\nexport const x = request;",
    "import { createKubeClient } from '@rayjob/kube-runtime';\nexport const x = createKubeClient;",
    "import { decide } from '@rayjob/core';\nexport const x = decide;",
    'export const now = (): number => Date.now();',
  ])('refuses %s', async (code) => {
    expect((await lint(code)).map((m) => m.ruleId)).not.toEqual([]);
  });

  it('accepts zod and its own sources', async () => {
    expect(await lint("import { z } from 'zod';\nexport const s = z.string();")).toEqual([]);
    const results = await eslint.lintFiles([join(root, 'packages/kube-model/src')]);
    expect(results.flatMap((r) => r.messages)).toEqual([]);
  });
});
