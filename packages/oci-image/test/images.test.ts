// The images `npm run images` builds, checked without a container runtime: each image's rootfs unpacked and
// its entrypoint run there (a private mount namespace, the rootfs as /, the image's user and environment, as
// root), as a kubelet would start the container. Built once for the host's architecture (CI time: the other
// architecture differs only in the pinned inputs). skopeo, where installed, reads the archives as users will.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startRayEmulator, fastTiming, type RayEmulator } from '@rayjob/ray-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImages, type BuiltProduct } from '../src/build-images.ts';
import type { Arch } from '../src/base-rootfs.ts';
import { hostArchitecture, unpackImage, type ResolvedImage } from '../src/unpack.ts';
import { runInRootfs } from './support/run-in-rootfs.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const arch = hostArchitecture() as Arch;
const work = mkdtempSync(join(tmpdir(), 'rayjob-images-test-'));
let built: BuiltProduct[] = [];
const rootfs: Record<string, { dir: string; image: ResolvedImage }> = {};
let emulator: RayEmulator | undefined;

beforeAll(async () => {
  built = await buildImages({ repoRoot, outDir: join(work, 'out'), archs: [arch], productNames: ['submitter', 'operator'], cacheDir: join(repoRoot, '.cache', 'images') });
  for (const product of built) {
    const dir = join(work, `${product.product}-rootfs`);
    rootfs[product.product] = { dir, image: await unpackImage(product.layout, arch, dir) };
  }
}, 600_000);

afterAll(async () => {
  await emulator?.stop();
  rmSync(work, { recursive: true, force: true });
});

const product = (name: string): BuiltProduct => {
  const found = built.find((p) => p.product === name);
  if (found === undefined) throw new Error(`${name} was not built`);
  return found;
};
const image = (name: string): ResolvedImage => (rootfs[name] as { image: ResolvedImage }).image;
const dir = (name: string): string => (rootfs[name] as { dir: string }).dir;

describe('what the images hold', () => {
  it.each(['submitter', 'operator'])('%s: user 65532, node 24 at /nodejs/bin/node, the CA bundle, no shell, no npm', (name) => {
    const config = image(name).config;
    expect(config.User).toBe('65532:65532');
    expect(config.Env).toContain('NODE_ENV=production');
    expect(readFileSync(join(dir(name), 'etc/passwd'), 'utf8')).toContain('nonroot:x:65532:65532:');
    expect(statSync(join(dir(name), 'nodejs/bin/node')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dir(name), 'etc/ssl/certs/ca-certificates.crt'), 'utf8').match(/BEGIN CERTIFICATE/g)?.length).toBeGreaterThan(100);
    for (const absent of ['bin/sh', 'usr/bin/sh', 'bin/bash', 'nodejs/bin/npm', 'nodejs/lib/node_modules', 'nodejs/include', 'usr/bin/apt-get']) {
      expect(existsSync(join(dir(name), absent)), absent).toBe(false);
    }
  });

  it('labels say where, which version and which commit', () => {
    const labels = image('submitter').config.Labels;
    expect(labels['org.opencontainers.image.source']).toMatch(/^https:\/\//);
    expect(labels['org.opencontainers.image.version']).toBe(JSON.parse(readFileSync(join(repoRoot, 'apps/submitter-sidecar/package.json'), 'utf8')).version);
    expect(labels['org.opencontainers.image.revision']).toMatch(/^[0-9a-f]{40}$/);
  });

  it('the submitter image is at most 45 MB compressed (the goal; KubeRay Go submitter: 9.7 MB)', () => {
    const size = product('submitter').images[0]?.compressedSize ?? Infinity;
    expect(size).toBeLessThanOrEqual(45e6);
  });
});

describe('run from the unpacked rootfs', () => {
  const run = (name: string, argv: string[], extra: { env?: string[]; binds?: Array<{ source: string; target: string }> } = {}) =>
    runInRootfs({ rootfs: dir(name), argv, env: [...image(name).config.Env, ...(extra.env ?? [])], user: image(name).config.User, binds: extra.binds ?? [] });

  it('/submitter --version answers (the entrypoint, run by the kernel through its node line)', async () => {
    expect(image('submitter').config.Entrypoint).toEqual(['/submitter']);
    const result = await run('submitter', ['/submitter', '--version']);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ray-job-submitter \d+\.\d+\.\d+\n$/) });
  });

  it('the submitter runs a job on the Ray emulator to SUCCEEDED: exit 0 and its termination message', async () => {
    emulator = await startRayEmulator({ timing: fastTiming });
    const messageFile = join(work, 'termination-log');
    writeFileSync(messageFile, '');
    chmodSync(messageFile, 0o666); // as the kubelet makes it: the container's user must be able to write it
    const result = await run('submitter', ['/submitter', '--address', emulator.url, '--submission-id', 'image-run-1', '--', 'echo from-the-image'], {
      env: ['KUBERNETES_SERVICE_HOST=10.96.0.1'],
      binds: [{ source: messageFile, target: '/dev/termination-log' }],
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain('from-the-image');
    expect(JSON.parse(readFileSync(messageFile, 'utf8'))).toMatchObject({ kind: 'rayjob.io/submitter-result', submissionId: 'image-run-1', exitCode: 0, lastStatus: 'SUCCEEDED' });
    expect(emulator.jobs()).toEqual([expect.objectContaining({ submissionId: 'image-run-1', status: 'SUCCEEDED' })]);
  });

  it('the operator answers --help from /app/bin/operator', async () => {
    expect(image('operator').config.Entrypoint).toEqual(['/app/bin/operator']);
    const result = await run('operator', ['/app/bin/operator', '--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('--submitter-image');
  });
});

describe('the archives', () => {
  it('oci-archive and docker-archive name the same manifest, and the docker-archive has Docker\'s manifest.json', () => {
    const entry = product('submitter').images[0];
    if (entry === undefined) throw new Error('no image');
    const list = (file: string): string[] => execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(list(entry.ociArchive.path)).toEqual(expect.arrayContaining(['oci-layout', 'index.json', `blobs/sha256/${entry.digest.slice(7)}`]));
    expect(list(entry.dockerArchive.path)).toEqual(expect.arrayContaining(['manifest.json', `blobs/sha256/${entry.digest.slice(7)}`]));
  });

  const skopeo = spawnSync('skopeo', ['--version']).status === 0;
  it.skipIf(!skopeo)('skopeo inspect shows the user, entrypoint, env, architecture and labels', () => {
    const entry = product('submitter').images[0];
    if (entry === undefined) throw new Error('no image');
    for (const transport of [`oci-archive:${entry.ociArchive.path}`, `docker-archive:${entry.dockerArchive.path}`]) {
      const inspect = JSON.parse(execFileSync('skopeo', ['inspect', transport], { encoding: 'utf8' })) as { Architecture: string; Os: string; Labels: Record<string, string>; Env: string[]; Digest: string };
      expect(inspect).toMatchObject({ Architecture: arch, Os: 'linux', Labels: expect.objectContaining({ 'org.opencontainers.image.version': expect.any(String) }), Env: expect.arrayContaining(['NODE_ENV=production']) });
      const config = JSON.parse(execFileSync('skopeo', ['inspect', '--config', transport], { encoding: 'utf8' })) as { config: { User: string; Entrypoint: string[] } };
      expect(config.config).toMatchObject({ User: '65532:65532', Entrypoint: ['/submitter'] });
    }
  });
});
