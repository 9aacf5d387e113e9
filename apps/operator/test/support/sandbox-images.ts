// Test and benchmark set-up (never in the bundle): the sandbox's one image catalog, configured for the operator's
// tests. Ray images run the Ray emulator (or real Ray when asked and provisioned), our submitter image(s) run the
// submitter's TypeScript source, so a test always exercises this checkout's code.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { defaultImages, type ImageCatalog } from '@rayjob/sandbox';

export const repoPath = (path: string): string => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

export const RAY_CRDS = [repoPath('packages/core/crds/ray.io_rayjobs.yaml'), repoPath('packages/core/crds/ray.io_rayclusters.yaml')];

/** Ray images -> the emulator (or real Ray when asked and provisioned); the submitter image(s) -> our submitter. */
export function sandboxImages(options: { realRay?: boolean; submitterImages?: string[] } = {}): ImageCatalog {
  return defaultImages({
    repoRoot: repoPath(''),
    realRayBin: options.realRay ? undefined : null,
    fromSource: true,
    submitterImages: options.submitterImages ?? [DEFAULT_SUBMITTER_IMAGE],
    rayJobsThroughSubmitter: false,
  });
}
