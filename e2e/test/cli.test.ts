// `npm run e2e`: the scenarios on a cluster of one's own. The command line is checked before any cluster is
// touched, and kind where it cannot run is reported skipped (exit 77), never passed.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kindUnavailable } from '../src/drivers/kind-driver.ts';
import { exitCodes, main, readCommandLine } from '../src/run/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'rayjob-e2e-cli-'));
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run e2e: the command line', () => {
  it.each([
    [[], /say which cluster: --kubeconfig <path>/],
    [['--kubeconfig', join(dir, 'missing')], /--kubeconfig .*missing: no such file/],
    [['--kubeconfig', kubeconfig, 'C99'], /no scenario C99/],
    [['--kind', '--kubeconfig', kubeconfig], /give --kind or --kubeconfig, not both/],
    [['--kubeconfig', kubeconfig, '--concurrency', '0'], /--concurrency must be a positive integer, got "0"/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('%j is refused with exit 2 and says why', async (argv, why) => {
    const said: string[] = [];
    expect(await main(argv, (l) => said.push(l))).toBe(exitCodes.usage);
    expect(said.join('\n')).toMatch(why);
    expect(said.join('\n')).toContain('usage: npm run e2e -- --kubeconfig <path>');
  });

  it('reads the cluster, the scenarios (case-insensitively) and the concurrency', () => {
    expect(readCommandLine(['--kubeconfig', kubeconfig, 'c1', 'lifecycle-HTTPMode'])).toEqual({ kind: 'kubectl', kubeconfigPath: kubeconfig, concurrency: 3, ids: ['c1', 'lifecycle-HTTPMode'] });
    expect(readCommandLine(['--kind', 'C2'])).toEqual({ kind: 'kind', ids: ['C2'] });
  });

  it('--kind where Docker, kind or helm is missing prints `skipped: <why>` and exits 77, not 0', async (ctx) => {
    const why = await kindUnavailable();
    if (why === undefined) ctx.skip('kind can run here: this test would create a cluster (e2e/test/kind.test.ts runs it)');
    const said: string[] = [];
    expect(await main(['--kind'], (l) => said.push(l))).toBe(exitCodes.skipped);
    expect(said).toEqual([`skipped: ${why}`]);
  });
});
