// The default image map and the --image flag, as pure functions.
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { realRayEnv } from '@rayjob/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultImages, parseImageFlag } from '../../src/images/default-images.ts';
import { lookupImage } from '../../src/kubelet/image-program.ts';
import { redisShimDir } from '../../src/images/redis-image.ts';
import { unmappedImageMessage } from '../../src/kubelet/unmapped-image.ts';

let repo: string;
beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'images-'));
  await mkdir(join(repo, 'packages/ray-emulator/src'), { recursive: true });
  await writeFile(join(repo, 'packages/ray-emulator/src/cli.ts'), '');
  await mkdir(join(repo, 'apps/submitter-sidecar/src'), { recursive: true });
  await writeFile(join(repo, 'apps/submitter-sidecar/src/main.ts'), '');
  await mkdir(join(repo, 'ray/bin'), { recursive: true });
  await writeFile(join(repo, 'ray/bin/ray'), '');
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe('default images', () => {
  it.each([
    ['busybox', [], ['sh']],
    ['alpine:3.20', [], ['sh']],
    ['docker.io/library/ubuntu', [], ['bash']],
    ['quay.io/other/ubuntu', undefined, undefined],
    ['ubuntu:24.04', [], ['bash']],
    ['python:3.12-slim', [], ['python3']],
  ])('%s runs the host program', (image, entrypoint, cmd) => {
    const program = lookupImage(defaultImages({ repoRoot: repo, env: {} }), image);
    if (entrypoint === undefined) expect(program).toBeUndefined();
    else expect(program).toMatchObject({ entrypoint, cmd });
  });

  it('Ray images run the emulator (with our submitter for `ray job`) when no real Ray is provisioned', () => {
    const program = lookupImage(defaultImages({ repoRoot: repo, realRayBin: null, node: '/n' }), 'docker.io/rayproject/ray:2.41.0');
    expect(program?.env?.RAYJOB_EMULATOR_CLI).toBe(join(repo, 'packages/ray-emulator/src/cli.ts'));
    expect(JSON.parse(program?.env?.RAYJOB_RAY_JOB_COMMAND ?? 'null')).toEqual(['/n', join(repo, 'apps/submitter-sidecar/src/main.ts')]);
  });

  it('Ray images run real Ray where it is provisioned', async () => {
    const program = lookupImage(defaultImages({ repoRoot: repo, env: { RAYJOB_REAL_RAY_BIN: join(repo, 'ray/bin') } }), 'rayproject/ray:2.58.0');
    // First on PATH: the installation's bin folder with the `ray` that runs `ray start` under the Ray start lock.
    const [first, second] = (program?.env?.PATH ?? '').split(delimiter);
    expect(readFileSync(join(first!, 'ray'), 'utf8')).toContain(`'${join(repo, 'ray/bin/ray')}' "$@"`);
    expect(second).toBe(join(repo, 'ray/bin'));
    await rm(first!, { recursive: true, force: true });
    expect(program?.env?.RAYJOB_EMULATOR_CLI).toBeUndefined();
  });

  it('real Ray pods get the settings every real Ray node of the tests shares (test-support realRayEnv); the image env given wins', async () => {
    const program = lookupImage(defaultImages({ repoRoot: repo, env: { RAYJOB_REAL_RAY_BIN: join(repo, 'ray/bin') }, programEnv: { RAY_num_workers_soft_limit: '3' } }), 'rayproject/ray:2.58.0');
    await rm((program?.env?.PATH ?? '').split(delimiter)[0]!, { recursive: true, force: true });
    expect(realRayEnv).toMatchObject({ RAY_prestart_worker_first_driver: '0', RAY_enable_metrics_collection: '0' });
    expect(program?.env).toMatchObject({ ...realRayEnv, RAY_num_workers_soft_limit: '3' });
  });

  it('the redis image runs this machine\'s redis-server through the shim that keeps /data in the container\'s /tmp', async () => {
    await mkdir(join(repo, 'redis/bin'), { recursive: true });
    await writeFile(join(repo, 'redis/bin/redis-server'), '');
    const program = lookupImage(defaultImages({ repoRoot: repo, env: { RAYJOB_REDIS_BIN: join(repo, 'redis/bin') } }), 'redis:7.4.0');
    expect(program).toMatchObject({ cmd: ['redis-server'], env: { RAYJOB_REDIS_SERVER: join(repo, 'redis/bin/redis-server') } });
    expect(program?.env?.PATH?.split(':').slice(0, 2)).toEqual([redisShimDir, join(repo, 'redis/bin')]);
    expect(lookupImage(defaultImages({ repoRoot: repo, env: { RAYJOB_REDIS_BIN: join(repo, 'redis/bin') } }), 'docker.io/library/redis:7')?.cmd).toEqual(['redis-server']);
  });

  it('our submitter image runs this checkout\'s submitter (bundle when built, else source)', async () => {
    expect(lookupImage(defaultImages({ repoRoot: repo, env: {}, node: '/n' }), 'ghcr.io/rayjob/submitter:latest')?.entrypoint).toEqual(['/n', join(repo, 'apps/submitter-sidecar/src/main.ts')]);
    await mkdir(join(repo, 'apps/submitter-sidecar/dist'), { recursive: true });
    await writeFile(join(repo, 'apps/submitter-sidecar/dist/submitter.mjs'), '');
    expect(lookupImage(defaultImages({ repoRoot: repo, env: {}, node: '/n' }), 'ghcr.io/rayjob/submitter:v1')?.entrypoint).toEqual(['/n', join(repo, 'apps/submitter-sidecar/dist/submitter.mjs')]);
  });

  it('configured submitter images run it too, whatever their tag or digest, and the source when asked (tests)', async () => {
    await mkdir(join(repo, 'apps/submitter-sidecar/dist'), { recursive: true });
    await writeFile(join(repo, 'apps/submitter-sidecar/dist/submitter.mjs'), '');
    // A digest reference: the catalog is keyed by repository, so "…@sha256:…" must not leave "…@sha256" as the key
    // (the operator's own dev catalog once cut at the digest's ':' and missed every other tag of the image).
    const catalog = defaultImages({ repoRoot: repo, env: {}, node: '/n', fromSource: true, submitterImages: ['registry.local:5000/acme/submitter@sha256:0123abcd'] });
    for (const image of ['registry.local:5000/acme/submitter@sha256:0123abcd', 'registry.local:5000/acme/submitter:v2', 'registry.local:5000/acme/submitter']) {
      expect(lookupImage(catalog, image)?.entrypoint, image).toEqual(['/n', join(repo, 'apps/submitter-sidecar/src/main.ts')]);
    }
  });

  it('`ray job` in Ray images runs the emulator\'s own CLI when not routed through our submitter', () => {
    for (const image of ['rayproject/ray:2.58.0', 'rayproject/ray-ml:2.9.0', 'quay.io/kuberay/ray:2.58.0']) {
      const program = lookupImage(defaultImages({ repoRoot: repo, realRayBin: null, node: '/n', rayJobsThroughSubmitter: false }), image);
      expect(program?.env?.RAYJOB_RAY_JOB_COMMAND, image).toBeUndefined();
      expect(program, image).toBeDefined();
    }
  });

  it('our node programs get the host\'s NODE_COMPILE_CACHE (as the submitter image ships one), and none without it', async () => {
    await mkdir(join(repo, 'apps/operator/src'), { recursive: true });
    await writeFile(join(repo, 'apps/operator/src/main.ts'), '');
    const env = { NODE_COMPILE_CACHE: '/cache' };
    const images = ['ghcr.io/rayjob/submitter:v1', 'ghcr.io/rayjob/operator:v1', 'rayproject/ray:2.58.0'];
    const cached = defaultImages({ repoRoot: repo, realRayBin: null, node: '/n', env });
    for (const image of images) expect(lookupImage(cached, image)?.env?.NODE_COMPILE_CACHE, image).toBe('/cache');
    expect(lookupImage(cached, 'rayproject/ray:2.58.0')?.env?.RAYJOB_EMULATOR_CLI).toBe(join(repo, 'packages/ray-emulator/src/cli.ts'));
    const plain = defaultImages({ repoRoot: repo, realRayBin: null, node: '/n', env: {} });
    for (const image of images) expect(lookupImage(plain, image)?.env?.NODE_COMPILE_CACHE, image).toBeUndefined();
    expect(lookupImage(cached, 'busybox')?.env).toBeUndefined();
  });

  it('a given submitter bundle and program environment reach the submitter, the operator and the Ray emulator (`ray job` included)', async () => {
    const built = join(repo, 'elsewhere/submitter.mjs');
    await mkdir(join(repo, 'elsewhere'), { recursive: true });
    await writeFile(built, '');
    const catalog = defaultImages({ repoRoot: repo, realRayBin: null, node: '/n', env: {}, fromSource: true, submitterBundle: built, programEnv: { NODE_COMPILE_CACHE: '/cc' } });
    const submitter = lookupImage(catalog, 'ghcr.io/rayjob/submitter:latest');
    const ray = lookupImage(catalog, 'rayproject/ray:2.58.0');
    expect(submitter).toMatchObject({ entrypoint: ['/n', built], env: { NODE_COMPILE_CACHE: '/cc' } });
    expect(ray?.env).toMatchObject({ NODE_COMPILE_CACHE: '/cc', RAYJOB_RAY_JOB_COMMAND: JSON.stringify(['/n', built]) });
    // Without them: the source (fromSource), and no environment of ours in the images.
    const plain = defaultImages({ repoRoot: repo, realRayBin: null, node: '/n', env: {}, fromSource: true });
    expect(lookupImage(plain, 'ghcr.io/rayjob/submitter')?.entrypoint).toEqual(['/n', join(repo, 'apps/submitter-sidecar/src/main.ts')]);
    expect(lookupImage(plain, 'ghcr.io/rayjob/submitter')?.env).toBeUndefined();
    expect(lookupImage(plain, 'rayproject/ray')?.env?.NODE_COMPILE_CACHE).toBeUndefined();
  });

  // The operator builds submitter containers with `command: [/submitter]` (the image's ENTRYPOINT): without the
  // mapping such a pod failed with StartError (exec: "/submitter": executable file not found).
  it.each([
    [['/submitter', '--', 'echo hi'], ['/n', 'SUBMITTER', '--', 'echo hi']],
    [['/app/bin/submitter', '--version'], ['/n', 'SUBMITTER', '--version']],
    [['sh', '-c', 'true'], ['sh', '-c', 'true']],
  ])('our submitter image runs a container command naming its executable %j', (argv, expected) => {
    const program = lookupImage(defaultImages({ repoRoot: repo, env: {}, node: '/n' }), 'ghcr.io/rayjob/submitter:0.1.0');
    const context = { podName: 'p', namespace: 'default', podIP: '10.0.0.2', containerName: 'c', env: {} };
    const file = join(repo, 'apps/submitter-sidecar/dist/submitter.mjs');
    expect(program?.rewrite?.(argv, context)).toEqual(expected.map((a) => (a === 'SUBMITTER' ? file : a)));
  });
});

describe('--image NAME=COMMAND', () => {
  it.each([
    ['myorg/tool=/usr/bin/tool --verbose', { ok: true, name: 'myorg/tool', program: { entrypoint: ['/usr/bin/tool', '--verbose'] } }],
    ['myorg/tool', { ok: false }],
    ['=/bin/true', { ok: false }],
    ['myorg/tool=  ', { ok: false }],
  ])('%j', (flag, expected) => {
    expect(parseImageFlag(flag)).toMatchObject(expected);
  });

  it('a bad flag names the expected form', () => {
    const parsed = parseImageFlag('nope');
    expect(parsed.ok ? '' : parsed.message).toContain('--image must be NAME=COMMAND');
  });

  it('the unmapped-image message names the repository to map', () => {
    expect(unmappedImageMessage('reg.example:5000/a/b:1@sha256:00')).toContain('--image reg.example:5000/a/b=COMMAND');
  });
});
