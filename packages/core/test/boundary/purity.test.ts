/**
 * core is pure: the lint rule in eslint.config.mjs rejects I/O imports and ambient clocks/randomness in
 * packages/core/src. This test proves the rule bites (on snippets) and that core's sources pass it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const eslint = new ESLint({ cwd: root });
const lintCore = async (code: string) => (await eslint.lintText(code, { filePath: join(root, 'packages/core/src/decision/probe.ts') }))[0]?.messages ?? [];

describe('core purity lint rule', () => {
  it.each([
    "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;",
    "import http from 'node:http';\nexport const x = http;",
    "import { spawn } from 'node:child_process';\nexport const x = spawn;",
    "import { request } from 'undici';\nexport const x = request;",
    "import { KubeConfig } from '@kubernetes/client-node';\nexport const x = KubeConfig;",
    "import WebSocket from 'ws';\nexport const x = WebSocket;",
    'export const x = () => Date.now();',
    'export const x = () => Math.random();',
    'export const x = () => process.env.HOME;',
    "export const x = () => fetch('http://x');",
    'export const x = () => setTimeout(() => 0, 1);',
  ])('rejects %j', async (code) => {
    const messages = await lintCore(code);
    expect(messages.map((m) => m.message).join('\n')).toMatch(/pure|takes/);
  });

  it('accepts pure code', async () => {
    expect(await lintCore("import { z } from 'zod';\nexport const s = z.string();")).toEqual([]);
  });

  it('core\'s own sources pass', async () => {
    const results = await eslint.lintFiles([join(root, 'packages/core/src/**/*.ts')]);
    expect(results.length).toBeGreaterThan(20);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`))).toEqual([]);
  }, 240_000); // type-aware ESLint over all of core: seconds when quiet, over a minute on a loaded 2-core machine
});
