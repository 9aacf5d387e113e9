// tools/check-structure.mjs (part of `npm run lint`) on small trees: each rule bites, and a named exception with a
// reason is the only way past it.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../src/index.ts';

const check = fileURLToPath(new URL('../../../tools/check-structure.mjs', import.meta.url));
let tree: TempDir | undefined;
afterEach(async () => tree?.remove());

async function run(files: Record<string, string>): Promise<{ code: number; output: string }> {
  tree = await tempDir('structure-');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(tree.path, path)), { recursive: true });
    await writeFile(join(tree.path, path), text);
  }
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [check, '--root', tree.path]);
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const longFunction = (name: string, lines: number): string => `export function ${name}(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 3)}}\n`;
const devPackage = { 'packages/sandbox/package.json': '{"name":"@rayjob/sandbox","exports":{".":"./src/index.ts"}}', 'packages/sandbox/src/index.ts': 'export const fake = 1;\n' };

describe('check-structure', () => {
  it.each([
    ['a file cycle', { 'packages/a/src/x.ts': "import { y } from './y.ts';\nexport const x = y;\n", 'packages/a/src/y.ts': "import { x } from './x.ts';\nexport const y = x;\n" }, /import cycle: packages\/a\/src\/x.ts <-> packages\/a\/src\/y.ts/],
    ['a folder cycle between sibling folders', { 'packages/a/src/p/x.ts': "import { y } from '../q/y.ts';\nexport const x = y;\n", 'packages/a/src/q/y.ts': "export const y = 1;\n", 'packages/a/src/q/z.ts': "import { x } from '../p/x.ts';\nexport const z = x;\n" }, /folder cycle: packages\/a\/src\/p <-> packages\/a\/src\/q/],
    ['a file over 400 lines', { 'packages/a/src/big.ts': 'export const a = 1;\n'.repeat(401) }, /big.ts: 401 lines \(at most 400\)/],
    ['a function over 80 lines', { 'packages/a/src/f.ts': longFunction('tooLong', 81) }, /function tooLong has 81 lines \(at most 80\)/],
    ['an app\'s src/ importing a dev package', { ...devPackage, 'apps/op/src/main.ts': "import { fake } from '@rayjob/sandbox';\nexport const m = fake;\n" }, /apps\/op\/src\/main.ts: imports the dev package @rayjob\/sandbox/],
    ['an exception without a reason', { 'packages/a/src/f.ts': `// structure-exception(function-lines tooLong):\n${longFunction('tooLong', 81)}` }, /needs a reason/],
    ['an exception that excuses nothing', { 'packages/a/src/f.ts': `// structure-exception(function-lines other): it is long for a reason\n${longFunction('tooLong', 20)}` }, /excuses nothing/],
  ])('refuses %s', async (_name, files, message) => {
    const { code, output } = await run(files);
    expect(code).toBe(1);
    expect(output).toMatch(message);
  });

  it.each([
    ['a function at 80 lines', { 'packages/a/src/f.ts': longFunction('fits', 80) }],
    ['a long function named in an exception with its reason', { 'packages/a/src/f.ts': `// structure-exception(function-lines tooLong): a parser table kept whole on purpose\n${longFunction('tooLong', 81)}` }],
    ['a dev package imported by an app\'s tests', { ...devPackage, 'apps/op/test/main.test.ts': "import { fake } from '@rayjob/sandbox';\nexport const m = fake;\n" }],
    ['a subfolder importing its parent folder and back', { 'packages/a/src/x.ts': "import { y } from './sub/y.ts';\nexport const x = y;\n", 'packages/a/src/sub/y.ts': "export const y = 1;\n", 'packages/a/src/sub/z.ts': "import { x } from '../x.ts';\nexport const z = x;\n" }],
    ['describe blocks of any length (they group, they are not functions)', { 'packages/a/test/t.test.ts': `describe('group', () => {\n${"  it('x', () => {});\n".repeat(90)}});\n` }],
  ])('accepts %s', async (_name, files) => {
    const { code, output } = await run(files);
    expect(output).not.toMatch(/violation/);
    expect(code).toBe(0);
  });
});
