// The images scenarios use: the sandbox's one image catalog (defaultImages, also behind `npm start` and the
// operator's tests), configured for scenarios. `rayproject/ray:*` runs the Ray emulator (or real Ray when a
// driver asks) with `ray job ...` delegated to our submitter, as KubeRay's script would call the CLI, and our
// submitter image runs the submitter from this checkout's source (or a bundle built from it), so a scenario
// always tests the code in this checkout.
import { fileURLToPath } from 'node:url';
import { DEFAULT_SUBMITTER_IMAGE } from '@rayjob/core';
import { imageRepository } from '@rayjob/kube-model';
import { defaultImages, type DefaultImagesOptions, type ImageCatalog, type ImageProgram } from '@rayjob/sandbox';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

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

/** The sandbox catalog's configuration for scenarios; `realRayBin`: Ray images run real Ray from there. */
export function scenarioImageConfig(options: ScenarioImageOptions = {}, realRayBin?: string): DefaultImagesOptions {
  return {
    repoRoot,
    realRayBin: realRayBin ?? null,
    fromSource: true,
    submitterImages: [DEFAULT_SUBMITTER_IMAGE],
    rayJobsThroughSubmitter: true,
    ...(options.submitterBundle !== undefined && { submitterBundle: options.submitterBundle }),
    ...(options.compileCache !== undefined && { programEnv: { NODE_COMPILE_CACHE: options.compileCache } }),
  };
}

export function scenarioImages(options: ScenarioImageOptions = {}, realRayBin?: string): ImageCatalog {
  const catalog = defaultImages(scenarioImageConfig(options, realRayBin));
  if (options.submitterImage) catalog[imageRepository(DEFAULT_SUBMITTER_IMAGE)] = options.submitterImage;
  return catalog;
}
