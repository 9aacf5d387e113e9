// Dev and test only (never in the bundle): how the sandbox's kubelet runs the images a RayJob names.
// Ray images run the Ray emulator (or a real Ray installation), our submitter image runs the submitter's source.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { imageRepository } from '@rayjob/kube-model';
import { findRealRayBin, findRedisBin, rayEmulatorImage, realRayImage, redisImage, type ImageCatalog, type ImageProgram } from '@rayjob/sandbox';

export const repoPath = (path: string): string => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

export const RAY_CRDS = [repoPath('packages/core/crds/ray.io_rayjobs.yaml'), repoPath('packages/core/crds/ray.io_rayclusters.yaml')];

/** Our submitter image: `/submitter ...` runs apps/submitter-sidecar's source with this Node. */
export function submitterImage(): ImageProgram {
  const main = repoPath('apps/submitter-sidecar/src/main.ts');
  return {
    entrypoint: ['/submitter'],
    rewrite: (argv) => (argv[0] === '/submitter' ? [process.execPath, main, ...argv.slice(1)] : argv),
  };
}

/** Ray images -> the emulator (or real Ray when asked and provisioned); the submitter image(s) -> our submitter. */
export function sandboxImages(options: { realRay?: boolean; submitterImages?: string[] } = {}): ImageCatalog {
  // The real-Ray tier where provisioned ($RAYJOB_REAL_RAY_BIN, $RAYJOB_RAY_VENV or /opt/rayjob-ray-venv).
  const rayBin = options.realRay ? findRealRayBin() : undefined;
  const ray = rayBin !== undefined ? realRayImage({ rayBin }) : rayEmulatorImage({ emulatorCli: repoPath('packages/ray-emulator/src/cli.ts') });
  const catalog: ImageCatalog = { 'rayproject/ray': ray, 'rayproject/ray-ml': ray, 'quay.io/kuberay/ray': ray };
  for (const image of options.submitterImages ?? [DEFAULT_SUBMITTER_IMAGE]) catalog[imageRepository(image)] = submitterImage();
  // KubeRay's GCS fault tolerance samples deploy `redis`: Debian's redis-server where installed.
  const redisBin = findRedisBin();
  if (redisBin !== undefined) catalog.redis = redisImage({ redisBin });
  return catalog;
}
