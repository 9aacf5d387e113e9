// How the sandbox kubelet turns an image into a local program. There is no container runtime: an
// image name maps to an ImageProgram that says what its ENTRYPOINT and CMD would run on this
// machine, and optionally rewrites the final argv (for example `ray start --head ...` becomes the
// Ray emulator's CLI, or the submitter image runs our submitter bundle with `node`).
import { imageRepository } from '@rayjob/kube-model';
import { expandVars } from './expand-vars.ts';
import type { ImageRootfs } from './image-rootfs.ts';

export interface ImageProgramContext {
  podName: string;
  namespace: string;
  podIP: string;
  containerName: string;
  /** The container's resolved environment. */
  env: Record<string, string>;
}

export interface ImageProgram {
  /** The image's ENTRYPOINT, as a local argv (e.g. ['node', '/abs/path/cli.js']). May be empty. */
  entrypoint: string[];
  /** The image's CMD (default arguments). */
  cmd?: string[];
  /** Environment baked into the image (ENV); the container's env overrides it. */
  env?: Record<string, string>;
  /**
   * Files the image brings: host paths bind-mounted into each of its containers (before the pod's
   * volumes), e.g. a directory of command shims mounted over a directory on the default PATH.
   */
  mounts?: Array<{ source: string; target: string; readOnly?: boolean }>;
  /**
   * The image's unpacked rootfs (an OCI image run as a runtime would: images/oci-layout-image.ts): the container
   * runs with it as `/`, as the image's user. Without one, the program runs from the host's filesystem.
   */
  rootfs?: ImageRootfs;
  /** The image's WORKDIR; defaults to `/`, as for an image without one. */
  workingDir?: string;
  /** Last step: map the argv Kubernetes would exec to what runs here. */
  rewrite?: (argv: string[], context: ImageProgramContext) => string[];
  /**
   * Maps exec probe commands that need tools the host lacks (e.g. wget in Ray images) to local ones, or to the
   * HTTP GET the command amounts to (checked by the kubelet itself, without starting a process).
   */
  rewriteProbe?: (command: string[]) => ProbeRewrite;
}

/** An exec probe's command as it runs here, or the HTTP GET against the pod that checks the same thing. */
export type ProbeRewrite = string[] | { httpGet: { path: string; port: number } };

export type ImageCatalog = Record<string, ImageProgram>;

/** Finds an image by exact reference, then by repository without tag or digest. */
export function lookupImage(catalog: ImageCatalog, image: string): ImageProgram | undefined {
  if (Object.hasOwn(catalog, image)) return catalog[image];
  const repository = imageRepository(image);
  if (Object.hasOwn(catalog, repository)) return catalog[repository];
  return undefined;
}

/**
 * The argv Kubernetes execs: `command` replaces ENTRYPOINT, `args` replaces CMD, and providing
 * `command` alone drops CMD. $(VAR) references in command and args expand from the container env.
 */
export function containerArgv(program: ImageProgram, container: { command?: string[]; args?: string[] }, env: Record<string, string>): string[] {
  const lookup = (name: string): string | undefined => (Object.hasOwn(env, name) ? env[name] : undefined);
  const expand = (list: string[]): string[] => list.map((item) => expandVars(item, lookup));
  const command = container.command !== undefined && container.command.length > 0 ? expand(container.command) : undefined;
  const args = container.args !== undefined && container.args.length > 0 ? expand(container.args) : undefined;
  if (command !== undefined) return [...command, ...(args ?? [])];
  return [...program.entrypoint, ...(args ?? program.cmd ?? [])];
}
