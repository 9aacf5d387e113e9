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
const lintCore = async (code: string) => (await eslint.lintText(code, { filePath: join(root, 'packages/core/src/rayjob/probe.ts') }))[0]?.messages ?? [];

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

  it.each([
    // Issue 8: the builders take the settings they need; nothing goes back up to the decision that uses them.
    ['builders/probe.ts', "import type { DecisionSettings } from '../rayjob/settings.ts';\nexport type X = DecisionSettings;", /layers import downwards only/],
    ['builders/raycluster/probe.ts', "import { decide } from '../../rayjob/decide.ts';\nexport const x = decide;", /layers import downwards only/],
    ['contracts/probe.ts', "import { buildSubmitterJob } from '../builders/submitter-job.ts';\nexport const x = buildSubmitterJob;", /layers import downwards only/],
    ['schema/probe.ts', "import { planRayCluster } from '../raycluster/plan.ts';\nexport const x = planRayCluster;", /layers import downwards only/],
    // The layer rule replaces the purity rule's options in these folders: purity must still hold there.
    ['builders/probe.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;", /pure/],
    ['validation/probe.ts', "import http from 'node:http';\nexport const x = http;", /pure/],
  ])('in src/%s rejects %j', async (file, code, message) => {
    const messages = (await eslint.lintText(code, { filePath: join(root, 'packages/core/src', file) }))[0]?.messages ?? [];
    expect(messages.map((m) => m.message).join('\n')).toMatch(message);
  });

  it('lets the builders import downwards', async () => {
    const code = "import { SubmitterEnv } from '../contracts/submitter-cli.ts';\nexport const x = SubmitterEnv;";
    expect((await eslint.lintText(code, { filePath: join(root, 'packages/core/src/builders/probe.ts') }))[0]?.messages ?? []).toEqual([]);
  });

  it('core\'s own sources pass', async () => {
    const results = await eslint.lintFiles([join(root, 'packages/core/src/**/*.ts')]);
    expect(results.length).toBeGreaterThan(20);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`))).toEqual([]);
  }, 240_000); // type-aware ESLint over all of core: seconds when quiet, over a minute on a loaded 2-core machine
});
