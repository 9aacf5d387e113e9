export { buildImages, readLock, type BuiltProduct, type BuildOptions } from './build-images.ts';
export { architectures, nonroot, type Arch } from './base-rootfs.ts';
export { unpackImage, resolveImage, hostArchitecture, type ResolvedImage } from './unpack.ts';
