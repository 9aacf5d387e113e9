// images.lock.json pins every input the images take from outside this checkout. The node in the images is the
// node the project runs on (tools/node-env.sh), and every architecture gets every library node links.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectures } from '../src/base-rootfs.ts';
import { readLock } from '../src/build-images.ts';

const lock = readLock();

describe('images.lock.json', () => {
  it("pins the node version tools/node-env.sh installs (one Node for the project and its images)", () => {
    const nodeEnv = readFileSync(resolve(import.meta.dirname, '../../../tools/node-env.sh'), 'utf8');
    expect(nodeEnv).toContain(`RAYJOB_NODE_VERSION="\${RAYJOB_NODE_VERSION:-${lock.node.version}}"`);
  });

  it.each(Object.keys(architectures) as Array<keyof typeof architectures>)('%s: node by integrity, and libc6, libgcc-s1, libstdc++6 and ca-certificates by sha256', (arch) => {
    expect(lock.node[arch]).toEqual({ package: architectures[arch].nodePackage, integrity: expect.stringMatching(/^sha512-[A-Za-z0-9+/]{86}==$/) });
    const debs = lock.debian.filter((d) => d.arch === arch || d.arch === 'all');
    expect(debs.map((d) => d.name).sort()).toEqual(['ca-certificates', 'libc6', 'libgcc-s1', 'libstdc++6']);
    for (const deb of debs) expect(deb).toEqual({ name: deb.name, version: expect.stringMatching(/^\S+$/), arch: deb.arch, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
