// OCI image manifests, configs and indexes, and the three forms `npm run images` writes: an OCI image layout
// directory (both architectures under one index, for `skopeo copy --all oci:DIR:TAG docker://...`), and per
// architecture an oci-archive and a docker-archive tarball (`docker load`, `kind load image-archive`, `skopeo
// copy`, `crane push`). The docker-archive holds the same blobs with Docker's manifest.json beside the OCI
// files, as Docker 25's `docker save` writes it. JSON is written with fixed key order, so digests are stable.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, tarEntries, type Layer, type LayerEntry } from './layer-tar.ts';

export const mediaTypes = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

export interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd?: string[];
  WorkingDir: string;
  ExposedPorts?: Record<string, Record<string, never>>;
  Labels: Record<string, string>;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture: string; os: string };
  annotations?: Record<string, string>;
}

export interface BuiltImage {
  arch: string;
  layers: Layer[];
  config: Buffer;
  manifest: Buffer;
  descriptor: Descriptor;
}

export interface ImageInput {
  arch: string;
  created: string;
  config: ImageConfig;
  /** Bottom first, each with what made it (the config's history). */
  layers: Array<{ layer: Layer; createdBy: string }>;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

export function assembleImage(input: ImageInput): BuiltImage {
  const config = json({
    created: input.created,
    architecture: input.arch,
    os: 'linux',
    config: input.config,
    rootfs: { type: 'layers', diff_ids: input.layers.map((l) => l.layer.diffId) },
    history: input.layers.map((l) => ({ created: input.created, created_by: l.createdBy })),
  });
  const manifest = json({
    schemaVersion: 2,
    mediaType: mediaTypes.manifest,
    config: { mediaType: mediaTypes.config, digest: sha256(config), size: config.length },
    layers: input.layers.map((l) => ({ mediaType: mediaTypes.layer, digest: l.layer.digest, size: l.layer.blob.length })),
  });
  return {
    arch: input.arch,
    layers: input.layers.map((l) => l.layer),
    config,
    manifest,
    descriptor: { mediaType: mediaTypes.manifest, digest: sha256(manifest), size: manifest.length, platform: { architecture: input.arch, os: 'linux' } },
  };
}

/** Bytes a registry stores and a node pulls for one image: its layers, config and manifest. */
export const compressedSize = (image: BuiltImage): number => image.layers.reduce((sum, l) => sum + l.blob.length, 0) + image.config.length + image.manifest.length;

/** Every blob of the images, by digest (layers shared between images once). */
function blobsOf(images: BuiltImage[], extra: Buffer[] = []): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  for (const image of images) {
    for (const layer of image.layers) blobs.set(layer.digest, layer.blob);
    blobs.set(sha256(image.config), image.config);
    blobs.set(image.descriptor.digest, image.manifest);
  }
  for (const blob of extra) blobs.set(sha256(blob), blob);
  return blobs;
}

const blobPath = (digest: string): string => `blobs/sha256/${digest.slice('sha256:'.length)}`;
const ociLayout = json({ imageLayoutVersion: '1.0.0' });

/** The files of an OCI image layout: one image directly, several under an image index; `tag` names it. */
export function layoutFiles(images: BuiltImage[], tag: string, annotations: Record<string, string> = {}): Map<string, Buffer> {
  const refName = { ...annotations, 'org.opencontainers.image.ref.name': tag };
  let top: Descriptor;
  const extra: Buffer[] = [];
  if (images.length === 1 && images[0] !== undefined) {
    top = { ...images[0].descriptor, annotations: refName };
  } else {
    const index = json({ schemaVersion: 2, mediaType: mediaTypes.index, manifests: images.map((i) => i.descriptor) });
    extra.push(index);
    top = { mediaType: mediaTypes.index, digest: sha256(index), size: index.length, annotations: refName };
  }
  const files = new Map<string, Buffer>([
    ['oci-layout', ociLayout],
    ['index.json', json({ schemaVersion: 2, mediaType: mediaTypes.index, manifests: [top] })],
  ]);
  for (const [digest, blob] of blobsOf(images, extra)) files.set(blobPath(digest), blob);
  return files;
}

export function writeLayout(dir: string, files: Map<string, Buffer>): void {
  for (const [path, data] of files) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
}

const archiveEntries = (files: Map<string, Buffer>): LayerEntry[] => [...files].map(([path, data]) => ({ path, type: 'file', mode: 0o644, data }));

/** An oci-archive: the layout of one image as a tar (uncompressed: its layers are compressed already). */
export async function ociArchive(image: BuiltImage, tag: string, mtimeSeconds: number): Promise<Buffer> {
  return tarEntries(archiveEntries(layoutFiles([image], tag)), mtimeSeconds);
}

/** A docker-archive: the same layout plus Docker's manifest.json naming the image `repoTag`. */
export async function dockerArchive(image: BuiltImage, repoTag: string, mtimeSeconds: number): Promise<Buffer> {
  // containerd (kind load, ctr import) names the image from this annotation.
  const files = layoutFiles([image], repoTag.slice(repoTag.lastIndexOf(':') + 1), { 'io.containerd.image.name': repoTag });
  files.set('manifest.json', json([{ Config: blobPath(sha256(image.config)), RepoTags: [repoTag], Layers: image.layers.map((l) => blobPath(l.digest)) }]));
  return tarEntries(archiveEntries(files), mtimeSeconds);
}
