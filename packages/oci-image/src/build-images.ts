// `npm run images`: both products for the requested architectures, from pinned inputs only (images.lock.json:
// node's npm tarballs by integrity, Debian's .debs by sha256; the bundles from this checkout), with every time
// stamp taken from SOURCE_DATE_EPOCH or the commit's time. Two runs on the same commit give the same bytes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { architectures, baseRootfs, type Arch } from './base-rootfs.ts';
import { fetchDebs, type PinnedDeb } from './deb-packages.ts';
import { buildLayer, type Layer } from './layer-tar.ts';
import { nodeBinary, type PinnedNode } from './node-binary.ts';
import { assembleImage, compressedSize, dockerArchive, layoutFiles, ociArchive, writeLayout, type BuiltImage } from './oci-layout.ts';
import { appEntries, imageEnv, nodePath, products, type Product } from './products.ts';

export interface ImagesLock {
  node: { version: string } & Record<Arch, Omit<PinnedNode, 'version'>>;
  debian: PinnedDeb[];
}

export const lockFile = new URL('../images.lock.json', import.meta.url).pathname;
export const readLock = (): ImagesLock => JSON.parse(readFileSync(lockFile, 'utf8')) as ImagesLock;

export interface BuildOptions {
  repoRoot: string;
  outDir: string;
  archs: Arch[];
  productNames: Array<Product['name']>;
  cacheDir: string;
  /** Label values; default from the environment and git. */
  source?: string;
  version?: string;
  revision?: string;
  epochSeconds?: number;
  /** gzip level of the layers (default 9, what is released; tests that only run the image may take 1). */
  compressionLevel?: number;
  log?: (line: string) => void;
}

export interface ArchiveFile {
  path: string;
  size: number;
  sha256: string;
}

export interface BuiltProduct {
  product: Product['name'];
  repository: string;
  version: string;
  layout: string;
  images: Array<{ arch: Arch; digest: string; compressedSize: number; ociArchive: ArchiveFile; dockerArchive: ArchiveFile }>;
}

const git = (repoRoot: string, args: string[]): string | undefined => {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
};

function writeArchive(path: string, data: Buffer): ArchiveFile {
  writeFileSync(path, data);
  return { path, size: data.length, sha256: `sha256:${createHash('sha256').update(data).digest('hex')}` };
}

export async function buildImages(options: BuildOptions): Promise<BuiltProduct[]> {
  const log = options.log ?? ((): void => undefined);
  const lock = readLock();
  const epoch = options.epochSeconds ?? Number(process.env.SOURCE_DATE_EPOCH ?? git(options.repoRoot, ['log', '-1', '--format=%ct']) ?? 0);
  const created = new Date(epoch * 1000).toISOString();
  const revision = options.revision ?? process.env.RAYJOB_IMAGE_REVISION ?? git(options.repoRoot, ['rev-parse', 'HEAD']) ?? 'unknown';
  const source = options.source ?? process.env.RAYJOB_IMAGE_SOURCE ?? 'https://github.com/rayjob/rayjob';

  // The base and node layers depend only on the architecture: built once, shared by both products.
  const shared = new Map<Arch, { base: Layer; node: Layer }>();
  for (const arch of options.archs) {
    const debs = lock.debian.filter((d) => d.arch === arch || d.arch === 'all');
    const base = await buildLayer(await baseRootfs(fetchDebs(debs, options.cacheDir)), epoch, options.compressionLevel);
    const pin = { ...lock.node[arch], version: lock.node.version };
    const binary = await nodeBinary(pin, options.cacheDir);
    const node = await buildLayer([
      { path: nodePath.slice(1), type: 'file', mode: 0o755, data: binary.node },
      { path: 'nodejs/LICENSE', type: 'file', mode: 0o644, data: binary.license },
    ], epoch, options.compressionLevel);
    log(`linux/${arch}: base layer ${base.blob.length} B (${debs.map((d) => `${d.name} ${d.version}`).join(', ')}), node ${lock.node.version} layer ${node.blob.length} B`);
    shared.set(arch, { base, node });
  }

  const built: BuiltProduct[] = [];
  for (const product of products.filter((p) => options.productNames.includes(p.name))) {
    const appPackage = JSON.parse(readFileSync(join(options.repoRoot, product.appDir, 'package.json'), 'utf8')) as { version: string };
    const version = options.version ?? process.env.RAYJOB_IMAGE_VERSION ?? appPackage.version;
    const app = await buildLayer(appEntries(product, options.repoRoot), epoch, options.compressionLevel);
    const images: BuiltImage[] = [];
    for (const arch of options.archs) {
      const layers = shared.get(arch);
      if (layers === undefined) throw new Error(`no layers for ${arch}`);
      images.push(assembleImage({
        arch: architectures[arch].oci,
        created,
        config: {
          User: '65532:65532',
          Env: imageEnv,
          ...product.config,
          WorkingDir: '/',
          Labels: {
            'org.opencontainers.image.title': product.title,
            'org.opencontainers.image.description': product.description,
            'org.opencontainers.image.source': source,
            'org.opencontainers.image.version': version,
            'org.opencontainers.image.revision': revision,
            'org.opencontainers.image.licenses': 'Apache-2.0',
            'org.opencontainers.image.created': created,
          },
        },
        layers: [
          { layer: layers.base, createdBy: 'rayjob base: users root and nonroot (65532), glibc, libstdc++, libgcc and CA certificates from Debian 12 packages' },
          { layer: layers.node, createdBy: `node ${lock.node.version} (${lock.node[arch].package} from the npm registry, stripped)` },
          { layer: app, createdBy: `${product.title} ${version}: esbuild bundle of ${product.appDir} at ${revision}` },
        ],
      }));
    }
    const layout = join(options.outDir, product.name, 'oci');
    rmSync(join(options.outDir, product.name), { recursive: true, force: true });
    writeLayout(layout, layoutFiles(images, version));
    const entries: BuiltProduct['images'] = [];
    for (const [i, image] of images.entries()) {
      const arch = options.archs[i] as Arch;
      const base = join(options.outDir, product.name, `${product.name}-${version}-linux-${arch}`);
      entries.push({
        arch,
        digest: image.descriptor.digest,
        compressedSize: compressedSize(image),
        ociArchive: writeArchive(`${base}.oci.tar`, await ociArchive(image, version, epoch)),
        dockerArchive: writeArchive(`${base}.docker.tar`, await dockerArchive(image, `${product.repository}:${version}`, epoch)),
      });
    }
    built.push({ product: product.name, repository: product.repository, version, layout, images: entries });
  }
  mkdirSync(options.outDir, { recursive: true });
  return built;
}
