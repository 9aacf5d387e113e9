// Running a container from an image's rootfs: executables are found inside the rootfs (its links followed with
// the rootfs as /, never into the host), and the pod's mounts land inside it after the read-only root, /proc,
// the devices and the container's own /tmp.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageLayoutFlag } from '../../src/images/oci-layout-image.ts';
import { enterRootfsArgv, homeInRootfs, pathInRootfs, resolveInRootfs, rootfsMounts } from '../../src/kubelet/image-rootfs.ts';

const root = mkdtempSync(join(tmpdir(), 'rayjob-rootfs-'));
mkdirSync(join(root, 'app/dist'), { recursive: true });
mkdirSync(join(root, 'nodejs/bin'), { recursive: true });
mkdirSync(join(root, 'etc'), { recursive: true });
writeFileSync(join(root, 'app/dist/submitter.mjs'), '#!/nodejs/bin/node\n', { mode: 0o755 });
writeFileSync(join(root, 'app/dist/data.json'), '{}', { mode: 0o644 });
writeFileSync(join(root, 'nodejs/bin/node'), '', { mode: 0o755 });
writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n');
symlinkSync('/app/dist/submitter.mjs', join(root, 'submitter'));
mkdirSync(join(root, 'app/bin'), { recursive: true });
symlinkSync('../dist/submitter.mjs', join(root, 'app/bin/submitter'));
symlinkSync('/etc/shadow', join(root, 'escape')); // absolute: the rootfs's /etc/shadow, which does not exist
symlinkSync('app', join(root, 'applink'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('paths inside an image rootfs', () => {
  it.each([
    ['an absolute link resolves against the rootfs', '/submitter', join(root, 'app/dist/submitter.mjs')],
    ['a relative link resolves from its directory', '/app/bin/submitter', join(root, 'app/dist/submitter.mjs')],
    ['a linked directory in the middle', '/applink/dist/data.json', join(root, 'app/dist/data.json')],
    ['a link to a file the rootfs lacks (the host has it)', '/escape', undefined],
    ['a missing path', '/nope', undefined],
  ])('%s', (_what, path, expected) => {
    expect(pathInRootfs(root, path)).toBe(expected);
  });

  it.each([
    ['an executable by path', '/submitter', undefined, '/submitter'],
    ['a name on the image PATH', 'node', '/nodejs/bin:/usr/bin', '/nodejs/bin/node'],
    ['a file that is not executable', '/app/dist/data.json', undefined, undefined],
    ['a host program the image does not have', 'sh', '/bin:/usr/bin', undefined],
  ])('execvp finds %s', (_what, program, pathVar, expected) => {
    expect(resolveInRootfs(root, program, pathVar)).toBe(expected);
  });

  it("HOME is the user's home in the image's /etc/passwd", () => {
    expect(homeInRootfs(root, 65532, (p) => readFileSync(p, 'utf8'))).toBe('/home/nonroot');
    expect(homeInRootfs(root, 4242, (p) => readFileSync(p, 'utf8'))).toBe('/');
  });
});

describe('mounts for a rootfs container', () => {
  const rootfs = { dir: root, uid: 65532, gid: 65532 };
  it('read-only root first, then /proc, devices, the own /tmp, then the pod mounts by depth inside the rootfs', () => {
    const mounts = rootfsMounts(rootfs, [
      { source: '/host/sa', target: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
      { source: '/host/msg', target: '/dev/termination-log', readOnly: false },
      { source: '/host/hosts', target: '/etc/hosts', readOnly: false },
    ], '/host/tmp');
    expect(mounts[0]).toEqual({ source: root, target: root, readOnly: true });
    expect(mounts.map((m) => m.target.slice(root.length))).toEqual([
      '', '/proc', '/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty', '/tmp',
      '/dev/termination-log', '/etc/hosts', '/var/run/secrets/kubernetes.io/serviceaccount',
    ]);
    expect(mounts.find((m) => m.target === join(root, 'tmp'))?.source).toBe('/host/tmp');
  });

  it('a volume mounted at /tmp is the container /tmp', () => {
    const mounts = rootfsMounts(rootfs, [{ source: '/host/vol', target: '/tmp', readOnly: false }], '/host/tmp');
    expect(mounts.filter((m) => m.target === join(root, 'tmp'))).toEqual([{ source: '/host/vol', target: join(root, 'tmp'), readOnly: false }]);
  });

  it('enters the rootfs as the image user in the working directory', () => {
    expect(enterRootfsArgv('/usr/bin/unshare', rootfs, '/work', ['/submitter', '--version'])).toEqual(['/usr/bin/unshare', `--root=${root}`, '--wd=/work', '--setgid=65532', '--setuid=65532', '--', '/submitter', '--version']);
  });
});

describe('--image-layout NAME=DIR', () => {
  it.each([
    ['no =', 'ghcr.io/rayjob/submitter'],
    ['no name', '=dist/images/submitter/oci'],
    ['a directory that is not a layout', `ghcr.io/rayjob/submitter=${root}`],
  ])('refuses %s, naming the flag and the fix', async (_what, value) => {
    const parsed = await imageLayoutFlag(value, join(root, 'unpacked'));
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('--image-layout must be NAME=DIR with DIR an OCI image layout') });
  });
});
