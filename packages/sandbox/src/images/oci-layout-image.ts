// An OCI image given as a layout directory (what `npm run images` writes), run as a cluster would run it: its
// rootfs unpacked once per manifest digest, its ENTRYPOINT, CMD, ENV, WORKDIR and USER from its config, and the
// kubelet starting each container inside that rootfs (kubelet/image-rootfs.ts) instead of as a host program.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostArchitecture, resolveImage, unpackImage } from '@rayjob/oci-image';
import type { ImageProgram } from '../kubelet/image-program.ts';
import { homeInRootfs } from '../kubelet/image-rootfs.ts';

export interface OciLayoutImageOptions {
  /** The OCI image layout directory (oci-layout, index.json, blobs/). */
  layout: string;
  /** Where rootfs directories are unpacked (one per manifest digest, reused when present). */
  unpackDir: string;
  /** Default: the host's architecture (the rootfs runs natively). */
  architecture?: string;
}

/** USER as `uid[:gid]`; names are looked up in the rootfs's /etc/passwd and /etc/group. */
function userIds(rootfs: string, user: string | undefined): { uid: number; gid: number } {
  const [u = '0', g] = (user ?? '').split(':');
  const lookup = (file: string, name: string, field: number): number => {
    if (/^\d+$/.test(name)) return Number(name);
    const line = readFileSync(join(rootfs, 'etc', file), 'utf8').split('\n').find((l) => l.split(':')[0] === name);
    const id = line?.split(':')[field];
    if (id === undefined) throw new Error(`image user "${user}": ${name} is not in the image's /etc/${file}`);
    return Number(id);
  };
  const uid = u === '' ? 0 : lookup('passwd', u, 2);
  const gid = g !== undefined && g !== '' ? lookup('group', g, 2) : u === '' || /^\d+$/.test(u) ? uid : lookup('passwd', u, 3);
  return { uid, gid };
}

export async function ociLayoutImage(options: OciLayoutImageOptions): Promise<ImageProgram> {
  const architecture = options.architecture ?? hostArchitecture();
  const image = resolveImage(options.layout, architecture);
  const dir = join(options.unpackDir, image.manifestDigest.replace(':', '-'));
  if (!existsSync(dir)) {
    mkdirSync(options.unpackDir, { recursive: true });
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    await unpackImage(options.layout, architecture, partial);
    renameSync(partial, dir);
  }
  const { uid, gid } = userIds(dir, image.config.User);
  const env: Record<string, string> = { HOME: homeInRootfs(dir, uid, (p) => readFileSync(p, 'utf8')) };
  for (const item of image.config.Env ?? []) {
    const eq = item.indexOf('=');
    if (eq > 0) env[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return {
    entrypoint: image.config.Entrypoint ?? [],
    ...(image.config.Cmd !== undefined && { cmd: image.config.Cmd }),
    env,
    workingDir: image.config.WorkingDir || '/',
    rootfs: { dir, uid, gid },
  };
}

export type ImageLayoutFlag = { ok: true; name: string; program: ImageProgram } | { ok: false; message: string };

/** `--image-layout NAME=DIR`: NAME (a repository, any tag) runs from the OCI image layout DIR, unpacked under unpackDir. */
export async function imageLayoutFlag(value: string, unpackDir: string): Promise<ImageLayoutFlag> {
  const eq = value.indexOf('=');
  const name = eq < 0 ? '' : value.slice(0, eq).trim();
  const layout = eq < 0 ? '' : resolve(value.slice(eq + 1).trim());
  if (name === '' || layout === '' || !existsSync(join(layout, 'index.json'))) {
    return { ok: false, message: `--image-layout must be NAME=DIR with DIR an OCI image layout (oci-layout, index.json, blobs/; npm run images writes dist/images/submitter/oci), got "${value}"` };
  }
  try {
    return { ok: true, name, program: await ociLayoutImage({ layout, unpackDir }) };
  } catch (error) {
    return { ok: false, message: `--image-layout ${value}: ${(error as Error).message}` };
  }
}
