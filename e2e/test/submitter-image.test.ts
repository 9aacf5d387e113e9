// The submitter as a cluster runs it: built into its OCI image (npm run images' builder, this checkout, the
// host's architecture), unpacked, and started by the sandbox's kubelet inside that rootfs as user 65532 with the
// image's entrypoint and environment; then the seed's C1 (the submitter pod deleted mid-job) must end Complete/
// SUCCEEDED. The image's user, entrypoint, termination-log path and libraries are what the operator meets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImages, hostArchitecture, type Arch } from '@rayjob/oci-image';
import { ociLayoutImage, type ImageProgram } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import { runScenario } from '../src/run/run-scenario.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { scenarioById } from '../src/scenarios/index.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'rayjob-submitter-image-'));
let driver: SandboxDriver | undefined;
let image: ImageProgram;
/** Every submitter container the kubelet started from the image (argv as Kubernetes execs it). */
const started: string[][] = [];

beforeAll(async () => {
  // gzip level 1: this test runs the image, it does not measure its size (the image test does, at level 9).
  const [built] = await buildImages({ repoRoot, outDir: join(work, 'out'), archs: [hostArchitecture() as Arch], productNames: ['submitter'], cacheDir: join(repoRoot, '.cache', 'images'), compressionLevel: 1 });
  if (built === undefined) throw new Error('no submitter image built');
  image = await ociLayoutImage({ layout: built.layout, unpackDir: join(work, 'unpacked') });
  const submitterImage: ImageProgram = { ...image, rewrite: (argv) => (started.push(argv), argv) };
  driver = await startSandboxDriver({ podPrograms: { submitterImage } });
}, 600_000);

afterAll(async () => {
  await driver?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('the submitter from its image on the sandbox', () => {
  it('runs as the image says: /submitter in the rootfs, user 65532, the image env', () => {
    expect(image).toMatchObject({ entrypoint: ['/submitter'], rootfs: { uid: 65532, gid: 65532 }, env: expect.objectContaining({ NODE_ENV: 'production', HOME: '/home/nonroot' }) });
  });

  it('C1: the submitter pod deleted mid-job, the RayJob still ends Complete/SUCCEEDED', async () => {
    const scenario = scenarioById('C1');
    if (scenario === undefined || driver === undefined) throw new Error('no C1 or no driver');
    const result = await runScenario(driver, scenario, { print: (line) => process.stdout.write(`${line}\n`) });
    expect(result.problems, result.timeline.join('\n')).toEqual([]);
    // The submitter pod ran the image's /submitter (backoffLimit 0: the operator follows the job after the
    // pod is gone, no second pod), and nothing else ran the submitter.
    expect(started.length).toBeGreaterThanOrEqual(1);
    for (const argv of started) expect(argv[0]).toBe('/submitter');
  });
});
