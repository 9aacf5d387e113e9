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
