// The images scenarios use, mapped to local programs for the sandbox's kubelet: `rayproject/ray:*` runs the
// Ray emulator (with `ray job ...` delegated to our submitter, as KubeRay's script would call the CLI), and our
// submitter image runs the submitter from source, so a scenario always tests the code in this checkout.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { imageRepository } from '@rayjob/kube-model';
import { rayEmulatorImage, type ImageCatalog, type ImageProgram } from '@rayjob/sandbox';

const repo = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const submitterMain = repo('apps/submitter-sidecar/src/main.ts');
export const emulatorCli = repo('packages/ray-emulator/src/cli.ts');


export interface ScenarioImageOptions {
  /** Run the submitter from this bundle (dist/submitter.mjs, as the image does) instead of from source. */
  submitterBundle?: string;
  /** NODE_COMPILE_CACHE for the node programs in pods (the submitter image has one). */
  compileCache?: string;
  /**
   * The submitter image itself (an OCI layout run from its rootfs: @rayjob/sandbox's ociLayoutImage), as a
   * cluster pulls it; replaces the host program for submitter pods (`ray job submit` in head pods stays ours).
   */
  submitterImage?: ImageProgram;
}

export function scenarioImages(submitterImage = DEFAULT_SUBMITTER_IMAGE, options: ScenarioImageOptions = {}): ImageCatalog {
  const node = process.execPath;
  const submitter = options.submitterBundle ?? submitterMain;
  const cacheEnv: Record<string, string> = options.compileCache === undefined ? {} : { NODE_COMPILE_CACHE: options.compileCache };
  const ray = rayEmulatorImage({ emulatorCli, node, jobCommand: [node, submitter] });
  return {
    'rayproject/ray': { ...ray, env: { ...ray.env, ...cacheEnv } },
    [imageRepository(submitterImage)]: options.submitterImage ?? {
      entrypoint: ['/submitter'],
      env: cacheEnv,
      // The image's /submitter execs node on the bundle; here node runs the source (or a bundle built from it).
      rewrite: (argv) => (argv[0] === '/submitter' ? [node, submitter, ...argv.slice(1)] : argv),
    },
  };
}
