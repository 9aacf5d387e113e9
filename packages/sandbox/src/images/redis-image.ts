// A ready-made ImageProgram for the redis image (`redis`, e.g. redis:7.4.0, as KubeRay's GCS fault tolerance
// samples deploy it), backed by Debian's redis-server on this machine: `redis-server` and `redis-cli` run as in the
// image, with the image's /data (WORKDIR, data directory) in the container's own /tmp (redis-shim/redis-server).
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImageProgram } from '../kubelet/image-program.ts';

export const redisShimDir = fileURLToPath(new URL('./redis-shim', import.meta.url));

/** The directory holding a redis-server, if this machine has one ($RAYJOB_REDIS_BIN, else /usr/bin). */
export function findRedisBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.RAYJOB_REDIS_BIN, '/usr/bin', '/usr/local/bin'];
  return candidates.find((dir): dir is string => dir !== undefined && dir !== '' && existsSync(join(dir, 'redis-server')));
}

export function redisImage(options: { redisBin: string; basePath?: string }): ImageProgram {
  return {
    // The image's ENTRYPOINT is a script that ends in `redis-server`; its CMD is `redis-server`.
    entrypoint: [],
    cmd: ['redis-server'],
    env: {
      PATH: `${redisShimDir}${delimiter}${options.redisBin}${delimiter}${options.basePath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
      RAYJOB_REDIS_SERVER: join(options.redisBin, 'redis-server'),
    },
    // `sh -c 'redis-server ...'` and login shells find the shim first: /usr/local/sbin precedes /usr/bin on PATH.
    mounts: [{ source: redisShimDir, target: '/usr/local/sbin' }],
  };
}
