import { describe, expect, it } from 'vitest';
import { programRoots, withPrivateTmp } from '../../src/kubelet/container-process.ts';

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
