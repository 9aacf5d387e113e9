// Reads an OCI image layout (an image index, nested indexes, or one manifest) and unpacks one platform's
// rootfs into a directory, layer by layer, with the layers' modes and owners (owners only as root), whiteouts
// applied. The sandbox's kubelet and the image tests run an image's entrypoint in that rootfs.
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import type { Descriptor, ImageConfig } from './oci-layout.ts';

export interface ResolvedImage {
  manifestDigest: string;
  architecture: string;
  config: ImageConfig;
  /** Layer blob paths, bottom first. */
  layers: string[];
}

const blob = (layout: string, digest: string): Buffer => readFileSync(join(layout, 'blobs', ...digest.split(':')));

interface IndexJson { manifests: Descriptor[] }
interface ManifestJson { config: Descriptor; layers: Descriptor[] }

/** The image for `architecture` (amd64, arm64) in the layout; the first when it holds several and none fits. */
export function resolveImage(layout: string, architecture: string): ResolvedImage {
  let descriptors = (JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as IndexJson).manifests;
  for (let depth = 0; depth < 4; depth++) {
    const pick = descriptors.find((d) => d.platform?.architecture === architecture) ?? descriptors.find((d) => d.platform === undefined) ?? descriptors[0];
    if (pick === undefined) throw new Error(`${layout}: index.json lists no image`);
    if (pick.mediaType.endsWith('image.index.v1+json') || pick.mediaType.endsWith('manifest.list.v2+json')) {
      descriptors = (JSON.parse(blob(layout, pick.digest).toString('utf8')) as IndexJson).manifests;
      continue;
    }
    const manifest = JSON.parse(blob(layout, pick.digest).toString('utf8')) as ManifestJson;
    const config = JSON.parse(blob(layout, manifest.config.digest).toString('utf8')) as { architecture: string; config: ImageConfig };
    if (config.architecture !== architecture) throw new Error(`${layout}: no linux/${architecture} image (it holds ${config.architecture})`);
    return { manifestDigest: pick.digest, architecture: config.architecture, config: config.config, layers: manifest.layers.map((l) => join(layout, 'blobs', ...l.digest.split(':'))) };
  }
  throw new Error(`${layout}: image indexes nested too deep`);
}

/** Host architecture in OCI's words. */
export const hostArchitecture = (): string => ({ x64: 'amd64', arm64: 'arm64' })[process.arch as 'x64' | 'arm64'] ?? process.arch;

function inside(root: string, path: string): string {
  const clean = normalize(`/${path}`);
  return join(root, clean);
}

async function applyLayer(root: string, layerFile: string, asRoot: boolean): Promise<void> {
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const header = entry.header;
      const target = inside(root, header.name);
      const name = basename(target);
      if (name === '.wh..wh..opq') {
        rmSync(dirname(target), { recursive: true, force: true });
        mkdirSync(dirname(target), { recursive: true });
        continue;
      }
      if (name.startsWith('.wh.')) {
        rmSync(join(dirname(target), name.slice('.wh.'.length)), { recursive: true, force: true });
        continue;
      }
      mkdirSync(dirname(target), { recursive: true });
      const mode = (header.mode ?? 0o644) & 0o7777;
      if (header.type === 'directory') {
        mkdirSync(target, { recursive: true });
        chmodSync(target, mode);
      } else if (header.type === 'file') {
        rmSync(target, { force: true });
        writeFileSync(target, Buffer.concat(chunks), { mode });
        chmodSync(target, mode);
      } else if (header.type === 'symlink') {
        rmSync(target, { force: true });
        symlinkSync(header.linkname ?? '', target);
      } else {
        throw new Error(`${layerFile}: ${header.name} is a ${header.type}, which this unpacker does not handle`);
      }
      if (asRoot) (header.type === 'symlink' ? lchownSync : chownSync)(target, header.uid ?? 0, header.gid ?? 0);
    }
  })();
  reader.end(gunzipSync(readFileSync(layerFile)));
  await done;
}

/**
 * Unpacks the image into `rootfs` (created; must not exist yet, so a half-written one is never reused by
 * mistake: write to a temporary name and rename). Returns what was unpacked.
 */
export async function unpackImage(layout: string, architecture: string, rootfs: string): Promise<ResolvedImage> {
  if (existsSync(rootfs)) throw new Error(`${rootfs} exists already`);
  const image = resolveImage(layout, architecture);
  mkdirSync(rootfs, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  for (const layer of image.layers) await applyLayer(rootfs, layer, asRoot);
  return image;
}
