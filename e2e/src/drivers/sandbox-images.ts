// The images scenarios use, mapped to local programs for the sandbox's kubelet: `rayproject/ray:*` runs the
// Ray emulator (with `ray job ...` delegated to our submitter, as KubeRay's script would call the CLI), and our
// submitter image runs the submitter from source, so a scenario always tests the code in this checkout.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { rayEmulatorImage, type ImageCatalog } from '@rayjob/sandbox';

const repo = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const submitterMain = repo('apps/submitter-sidecar/src/main.ts');
export const emulatorCli = repo('packages/ray-emulator/src/cli.ts');

/** The repository of an image reference (no tag, no digest), as the kubelet's catalog looks it up. */
export const imageRepository = (image: string): string => {
  const noDigest = image.split('@')[0] ?? image;
  const colon = noDigest.lastIndexOf(':');
  return colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
};

export function scenarioImages(submitterImage = DEFAULT_SUBMITTER_IMAGE): ImageCatalog {
  const node = process.execPath;
  return {
    'rayproject/ray': rayEmulatorImage({ emulatorCli, node, jobCommand: [node, submitterMain] }),
    [imageRepository(submitterImage)]: {
      entrypoint: ['/submitter'],
      // The image's /submitter execs node on the bundle; here node runs the source.
      rewrite: (argv) => (argv[0] === '/submitter' ? [node, submitterMain, ...argv.slice(1)] : argv),
    },
  };
}
