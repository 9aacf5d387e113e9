// Reproducibility rests on the layer writer: the same entries give the same bytes whatever order they come in,
// and nothing of the machine (time, user names) leaks into the tar or the gzip header.
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { buildLayer, tarEntries, type LayerEntry } from '../src/layer-tar.ts';

const entries: LayerEntry[] = [
  { path: 'app/dist/b.mjs', type: 'file', mode: 0o644, data: Buffer.from('b') },
  { path: 'etc/passwd', type: 'file', mode: 0o644, data: Buffer.from('root:x:0:0::/:/x\n') },
  { path: 'submitter', type: 'symlink', target: '/app/dist/a.mjs' },
  { path: 'app/dist/a.mjs', type: 'file', mode: 0o755, data: Buffer.from('#!/nodejs/bin/node\n') },
  { path: 'home/nonroot', type: 'dir', mode: 0o700, uid: 65532, gid: 65532 },
];

describe('layer tar', () => {
  it('the same entries in another order give the same digest', async () => {
    const a = await buildLayer(entries, 1_700_000_000);
    const b = await buildLayer([...entries].reverse(), 1_700_000_000);
    expect(b.digest).toBe(a.digest);
    expect(b.diffId).toBe(a.diffId);
  });

  it('the mtime is the one given, so a different one changes the digest', async () => {
    const a = await buildLayer(entries, 1_700_000_000);
    const b = await buildLayer(entries, 1_700_000_001);
    expect(b.digest).not.toBe(a.digest);
  });

  it('lists parents before children, with directories the entries imply, and no user names', async () => {
    const tar = await tarEntries(entries, 0);
    const names: string[] = [];
    for (let offset = 0; offset + 512 <= tar.length; offset += 512) {
      const header = tar.subarray(offset, offset + 512);
      const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
      if (name === '') break;
      expect(header.subarray(265, 265 + 32).toString('utf8').replace(/\0+$/, '')).toBe(''); // uname
      names.push(name);
      const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
      offset += Math.ceil(size / 512) * 512;
    }
    expect(names).toEqual(['app/', 'app/dist/', 'app/dist/a.mjs', 'app/dist/b.mjs', 'etc/', 'etc/passwd', 'home/', 'home/nonroot/', 'submitter']);
  });

  it('the gzip header carries no timestamp', async () => {
    const layer = await buildLayer(entries, 0);
    expect(layer.blob.readUInt32LE(4)).toBe(0);
    expect(gunzipSync(layer.blob).length).toBe(layer.tarSize);
  });

  it('refuses a path listed twice', async () => {
    await expect(buildLayer([...entries, { path: '/etc/passwd', type: 'file', mode: 0o644, data: Buffer.from('') }], 0)).rejects.toThrow('etc/passwd twice');
  });
});
