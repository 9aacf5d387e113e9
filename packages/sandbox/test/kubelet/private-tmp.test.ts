import { describe, expect, it } from 'vitest';
import { mountTable, programRoots, withPrivateTmp } from '../../src/kubelet/container-process.ts';

describe('a container\'s private /tmp', () => {
  it('replaces /tmp last, carrying mounts that target paths under it', () => {
    const mounts = withPrivateTmp([{ source: '/host/cfg', target: '/tmp/cfg', readOnly: true }, { source: '/host/x', target: '/etc/x', readOnly: true }], '/run/pod/tmp', []);
    expect(mounts).toEqual([
      { source: '/host/x', target: '/etc/x', readOnly: true },
      { source: '/host/cfg', target: '/run/pod/tmp/cfg', readOnly: true },
      { source: '/run/pod/tmp', target: '/tmp', readOnly: false, recursive: true },
    ]);
  });

  it('keeps program roots under /tmp visible at their host paths (a CI checkout in /tmp)', () => {
    const mounts = withPrivateTmp([], '/run/pod/tmp', ['/tmp/ci-clone', '/opt/node/bin']);
    expect(mounts).toEqual([
      { source: '/tmp/ci-clone', target: '/run/pod/tmp/ci-clone', readOnly: false, recursive: true },
      { source: '/run/pod/tmp', target: '/tmp', readOnly: false, recursive: true },
    ]);
  });

  it('program roots are this checkout and the node binary\'s folder', () => {
    const roots = programRoots();
    expect(roots[0] && new URL(import.meta.url).pathname.startsWith(`${roots[0]}/packages/sandbox/`)).toBe(true);
    expect(process.execPath.startsWith(`${roots[1]}/`)).toBe(true);
  });
});

describe('mount points created on the host', () => {
  it('are removed again, newest first, while still empty; anything else stays', async () => {
    const { mkdtempSync, existsSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { ensureMountPoint, removeCreatedMountPoints } = await import('../../src/kubelet/container-process.ts');
    const root = mkdtempSync(join(tmpdir(), 'mountpoints-'));
    const fileSource = join(root, 'source-file');
    writeFileSync(fileSource, 'x');
    mkdirSync(join(root, 'source-dir'));
    ensureMountPoint(fileSource, join(root, 'a', 'b', 'termination-log'));
    ensureMountPoint(join(root, 'source-dir'), join(root, 'c', 'secrets'));
    ensureMountPoint(join(root, 'source-dir'), join(root, 'd'));
    writeFileSync(join(root, 'd', 'someone-elses-file'), 'keep me');
    expect(existsSync(join(root, 'a', 'b', 'termination-log'))).toBe(true);
    removeCreatedMountPoints();
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(existsSync(join(root, 'c'))).toBe(false);
    expect(existsSync(join(root, 'd', 'someone-elses-file'))).toBe(true);
    expect(existsSync(fileSource)).toBe(true);
  });
});

describe('a container\'s mount table (one `mount -a -T` in its prologue)', () => {
  it('lists the binds in order, read-only as bind,ro and recursive as rbind, paths escaped as fstab fields', () => {
    const table = mountTable([
      { source: '/pod/my volume', target: '/data\tdir', readOnly: true },
      { source: '/pod/back\\slash', target: '/etc/x', readOnly: false },
      { source: '/pod/cr\rvt\vff\fnl\n', target: '/opt/y', readOnly: false },
      { source: '/pod/tmp', target: '/tmp', readOnly: false, recursive: true },
      { source: '/pod/ro-tmp', target: '/ro-tmp', readOnly: true, recursive: true },
    ]);
    expect(table).toBe([
      '/pod/my\\040volume /data\\011dir none bind,ro 0 0',
      '/pod/back\\134slash /etc/x none bind 0 0',
      '/pod/cr\\015vt\\013ff\\014nl\\012 /opt/y none bind 0 0',
      '/pod/tmp /tmp none rbind 0 0',
      '/pod/ro-tmp /ro-tmp none rbind,ro 0 0',
      '',
    ].join('\n'));
  });

  it('mounts as util-linux reads it: a path with a space, read-only where asked, a read-only volume at /tmp too', async () => {
    const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const root = mkdtempSync(join(tmpdir(), 'mount-table-'));
    for (const dir of ['src dir', 'ro target', 'rw target', 'ro tmp']) mkdirSync(join(root, dir));
    writeFileSync(join(root, 'src dir', 'f'), 'hello\n');
    const table = join(root, 'mounts.fstab');
    writeFileSync(table, mountTable([
      { source: join(root, 'src dir'), target: join(root, 'ro target'), readOnly: true },
      { source: join(root, 'src dir'), target: join(root, 'rw target'), readOnly: false },
      // A volume mounted read-only at /tmp: the last, recursive bind withPrivateTmp gives it.
      ...withPrivateTmp([{ source: join(root, 'src dir'), target: '/tmp', readOnly: true }], join(root, 'unused'), []).map((m) => ({ ...m, target: join(root, 'ro tmp') })),
    ]));
    // In a private mount namespace (as the container's prologue runs), so nothing stays mounted on the host.
    const script = 'mount -a -T "$1" && cat "$2/f" && { touch "$2/x" 2>/dev/null && echo writable || echo read-only; } && touch "$3/y" && echo writable'
      + ' && cat "$4/f" && { touch "$4/z" 2>/dev/null && echo writable || echo read-only; }';
    const out = execFileSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', table, join(root, 'ro target'), join(root, 'rw target'), join(root, 'ro tmp')]).toString();
    expect(out).toBe('hello\nread-only\nwritable\nhello\nread-only\n');
    rmSync(root, { recursive: true, force: true });
  });
});
