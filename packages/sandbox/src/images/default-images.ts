// The images a newcomer's first commands use, mapped to programs on this machine (there is no container
// runtime): common base images run the host's shell, python and node; Ray images run real Ray where the
// real-Ray tier is provisioned (tools/ray/provision.sh) and the Ray emulator elsewhere; our own submitter and
// operator images run this checkout's entry points. Paths are configuration (the sandbox imports no app).
import { existsSync } from 'node:fs';
import { imageRepository } from '@rayjob/kube-model';
import { rayStartLockDir } from '@rayjob/test-support';
import { join } from 'node:path';
import type { ImageCatalog, ImageProgram } from '../kubelet/image-program.ts';
import { rayEmulatorImage, realRayImage } from './ray-image.ts';
import { findRedisBin, redisImage } from './redis-image.ts';

export interface DefaultImagesOptions {
  /** The repository checkout holding packages/ and apps/. */
  repoRoot: string;
  /**
   * Directory with a real Ray's `ray`; null: use the emulator. Default: $RAYJOB_REAL_RAY_BIN, else
   * $RAYJOB_RAY_VENV/bin or /opt/rayjob-ray-venv/bin when present.
   */
  realRayBin?: string | null;
  node?: string;
  env?: NodeJS.ProcessEnv;
  /** More image names that run our submitter (the operator's --submitter-image, say), matched by repository. */
  submitterImages?: string[];
  /** Run the apps from their TypeScript source even when a bundle is built (tests exercise this checkout's code). */
  fromSource?: boolean;
  /** `ray job ...` in Ray images runs our submitter (default), or with false the emulator's own CLI. */
  rayJobsThroughSubmitter?: boolean;
  /** Run the submitter from this bundle (one built for a test run, say) instead of apps/submitter-sidecar's own. */
  submitterBundle?: string;
  /**
   * More environment baked into the images that run node programs (our submitter and operator, the Ray
   * emulator), over the host's NODE_COMPILE_CACHE: e.g. a compile cache of the caller's own.
   */
  programEnv?: Record<string, string>;
}

export const submitterImageName = 'ghcr.io/rayjob/submitter';
export const operatorImageName = 'ghcr.io/rayjob/operator';

/** Where a provisioned real Ray lives, if anywhere. */
export function findRealRayBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.RAYJOB_REAL_RAY_BIN, `${env.RAYJOB_RAY_VENV ?? '/opt/rayjob-ray-venv'}/bin`];
  return candidates.find((dir): dir is string => dir !== undefined && dir !== '' && existsSync(join(dir, 'ray')));
}

/**
 * An app's entry point: its built bundle when present, else its TypeScript source run by node. `imagePaths` are
 * where the image keeps its executable (its Dockerfile's ENTRYPOINT and the script behind it): a container whose
 * `command` names one of them runs the same program, as it would in the image.
 */
function appProgram(node: string, bundle: string | undefined, source: string, imagePaths: string[], env: Record<string, string>): ImageProgram | undefined {
  const file = bundle !== undefined && existsSync(bundle) ? bundle : existsSync(source) ? source : undefined;
  if (file === undefined) return undefined;
  return {
    entrypoint: [node, file],
    ...(Object.keys(env).length > 0 && { env }),
    rewrite: (argv) => (argv[0] !== undefined && imagePaths.includes(argv[0]) ? [node, file, ...argv.slice(1)] : argv),
  };
}

/**
 * The host's NODE_COMPILE_CACHE (npm test sets one, outside /tmp since every pod has its own /tmp) for the node
 * programs of our images, as the submitter image ships one: less CPU per pod start, the same code.
 */
function compileCacheEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE } : {};
}

export function defaultImages(options: DefaultImagesOptions): ImageCatalog {
  const node = options.node ?? process.execPath;
  const cacheEnv = { ...compileCacheEnv(options.env ?? process.env), ...options.programEnv };
  const shell = (cmd: string[]): ImageProgram => ({ entrypoint: [], cmd });
  const catalog: ImageCatalog = {
    busybox: shell(['sh']),
    alpine: shell(['sh']),
    debian: shell(['bash']),
    ubuntu: shell(['bash']),
    python: shell(['python3']),
    node: shell([node]),
  };
  const bundle = (path: string): string | undefined => (options.fromSource ? undefined : join(options.repoRoot, path));
  const submitter = appProgram(node, options.submitterBundle ?? bundle('apps/submitter-sidecar/dist/submitter.mjs'), join(options.repoRoot, 'apps/submitter-sidecar/src/main.ts'), ['/submitter', '/app/bin/submitter'], cacheEnv);
  if (submitter) for (const image of [submitterImageName, ...(options.submitterImages ?? [])]) catalog[imageRepository(image)] = submitter;
  const operator = appProgram(node, bundle('apps/operator/dist/operator.mjs'), join(options.repoRoot, 'apps/operator/src/main.ts'), ['/app/bin/operator'], cacheEnv);
  if (operator) catalog[operatorImageName] = operator;
  const rayBin = options.realRayBin === null ? undefined : (options.realRayBin ?? findRealRayBin(options.env));
  const emulatorCli = join(options.repoRoot, 'packages/ray-emulator/src/cli.ts');
  const jobsThroughSubmitter = options.rayJobsThroughSubmitter !== false && submitter !== undefined;
  const emulator = (): ImageProgram => {
    const image = rayEmulatorImage({ emulatorCli, node, ...(jobsThroughSubmitter && { jobCommand: submitter.entrypoint }) });
    return { ...image, env: { ...image.env, ...cacheEnv } };
  };
  const ray = rayBin !== undefined ? realRayImage({ rayBin, node, env: cacheEnv, startLockDir: rayStartLockDir(options.env) }) : existsSync(emulatorCli) ? emulator() : undefined;
  // KubeRay's samples and docs name these Ray images too.
  if (ray) for (const image of ['rayproject/ray', 'rayproject/ray-ml', 'quay.io/kuberay/ray']) catalog[image] = ray;
  // Debian's redis-server where installed (.ci/run and the README's set-up install it): KubeRay's FT samples' Redis.
  const redisBin = findRedisBin(options.env);
  if (redisBin !== undefined) catalog.redis = redisImage({ redisBin });
  // Docker Hub's long forms name the same images (docker.io/library/busybox, docker.io/rayproject/ray).
  for (const [name, program] of Object.entries(catalog)) {
    if (name.includes('.')) continue;
    catalog[`docker.io/${name.includes('/') ? name : `library/${name}`}`] = program;
  }
  return catalog;
}

export type ImageFlag = { ok: true; name: string; program: ImageProgram } | { ok: false; message: string };

/**
 * `--image NAME=COMMAND`: COMMAND is the image's ENTRYPOINT, split on whitespace (quote-free on purpose: use a
 * script path for anything more). NAME is matched as an image reference, or as a repository for any tag.
 */
export function parseImageFlag(value: string): ImageFlag {
  const eq = value.indexOf('=');
  const name = eq < 0 ? '' : value.slice(0, eq).trim();
  const command = eq < 0 ? [] : value.slice(eq + 1).trim().split(/\s+/).filter((w) => w !== '');
  if (name === '' || command.length === 0) return { ok: false, message: `--image must be NAME=COMMAND (e.g. --image myorg/tool=/usr/bin/tool), got "${value}"` };
  return { ok: true, name, program: { entrypoint: command } };
}
