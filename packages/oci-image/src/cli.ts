#!/usr/bin/env node
// npm run images [-- --arch amd64,arm64] [--product submitter,operator] [--out DIR] [--refresh-debian-pins]
// Builds the images (see build-images.ts) and prints each image's digest and compressed size and each
// archive's sha256 and size; images.json in the output directory lists the same for scripts (the release).
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { architectures, type Arch } from './base-rootfs.ts';
import { buildImages, lockFile, readLock } from './build-images.ts';
import { currentDebs } from './deb-packages.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const usage = 'usage: npm run images -- [--arch amd64,arm64] [--product submitter,operator] [--out DIR] [--refresh-debian-pins]';
let values;
try {
  ({ values } = parseArgs({ options: { arch: { type: 'string', default: 'amd64,arm64' }, product: { type: 'string', default: 'submitter,operator' }, out: { type: 'string', default: join(repoRoot, 'dist', 'images') }, 'refresh-debian-pins': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const archs = values.arch.split(',').filter((a) => a !== '');
const badArch = archs.find((a) => !Object.hasOwn(architectures, a));
if (badArch !== undefined) {
  console.error(`--arch: unknown architecture "${badArch}" (amd64, arm64)`);
  process.exit(2);
}
const productNames = values.product.split(',').filter((p) => p !== '');
const badProduct = productNames.find((p) => p !== 'submitter' && p !== 'operator');
if (badProduct !== undefined) {
  console.error(`--product: unknown product "${badProduct}" (submitter, operator)`);
  process.exit(2);
}
const cacheDir = join(repoRoot, '.cache', 'images');

if (values['refresh-debian-pins']) {
  const lock = readLock();
  const names = [...new Map(lock.debian.map((d) => [`${d.name}:${d.arch}`, { name: d.name, arch: d.arch }])).values()];
  lock.debian = currentDebs(names, cacheDir);
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  for (const d of lock.debian) console.log(`${d.name}:${d.arch} ${d.version} sha256:${d.sha256}`);
  process.exit(0);
}

const started = Date.now();
const built = await buildImages({ repoRoot, outDir: values.out, archs: archs as Arch[], productNames: productNames as Array<'submitter' | 'operator'>, cacheDir, log: (line) => console.log(line) });
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
for (const product of built) {
  console.log(`\n${product.repository}:${product.version}  layout ${relative(process.cwd(), product.layout)}`);
  for (const image of product.images) {
    console.log(`  linux/${image.arch}  manifest ${image.digest}  compressed ${mb(image.compressedSize)} (${image.compressedSize} B)`);
    for (const file of [image.ociArchive, image.dockerArchive]) console.log(`    ${relative(process.cwd(), file.path)}  ${file.sha256}  ${file.size} B`);
  }
}
writeFileSync(join(values.out, 'images.json'), `${JSON.stringify(built, null, 2)}\n`);
console.log(`\nbuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
