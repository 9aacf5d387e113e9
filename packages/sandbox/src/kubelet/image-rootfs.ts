// Running a container from an image's unpacked rootfs, as a container runtime would and without one: the pod's
// mounts land inside the rootfs, the rootfs becomes `/` (unshare --root), and the program runs as the image's
// user with the image's environment. The rootfs is bound read-only (one unpacked copy serves every container
// of the image; what a container writes goes to its own /tmp, its volumes and its termination-log file), the
// container's /proc is bound in, and a few device nodes (/dev/null, /dev/urandom, ...) as every runtime adds.
import { accessSync, constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, normalize } from 'node:path';

/** A bind mount (container-process.ts's BindMount, without importing it: that module imports this one). */
export interface RootfsMount {
  source: string;
  target: string;
  readOnly: boolean;
  recursive?: boolean;
}

export interface ImageRootfs {
  /** The unpacked rootfs on the host. */
  dir: string;
  uid: number;
  gid: number;
}

const devices = ['null', 'zero', 'full', 'random', 'urandom', 'tty'];

const depth = (path: string): number => normalize(path).split('/').filter((p) => p !== '').length;

/**
 * The container's mounts with targets inside the rootfs: the read-only rootfs itself first, then /proc, the
 * devices and the container's /tmp (or a volume mounted there), then the pod's mounts, parents before children.
 */
export function rootfsMounts(rootfs: ImageRootfs, mounts: RootfsMount[], tmpDir: string): RootfsMount[] {
  const at = (target: string): string => join(rootfs.dir, normalize(`/${target}`));
  const own = mounts.find((m) => normalize(m.target) === '/tmp');
  const rest = mounts.filter((m) => m !== own).sort((a, b) => depth(a.target) - depth(b.target));
  return [
    { source: rootfs.dir, target: rootfs.dir, readOnly: true },
    { source: '/proc', target: at('/proc'), readOnly: false },
    ...devices.map((d) => ({ source: `/dev/${d}`, target: at(`/dev/${d}`), readOnly: false })),
    { source: own?.source ?? tmpDir, target: at('/tmp'), readOnly: own?.readOnly ?? false },
    ...rest.map((m) => ({ ...m, target: at(m.target) })),
  ];
}

/** The host path of `path` inside the rootfs, following symbolic links as the kernel would with that root. */
export function pathInRootfs(rootfsDir: string, path: string): string | undefined {
  let current = normalize(`/${path}`);
  for (let hops = 0; hops < 40; hops++) {
    // Resolve each component so links in directories (/lib64 -> lib) stay inside the rootfs too.
    const parts = current.split('/').filter((p) => p !== '');
    let resolved = '/';
    let relinked = false;
    for (const [i, part] of parts.entries()) {
      const candidate = join(resolved, part);
      let stat;
      try {
        stat = lstatSync(join(rootfsDir, candidate));
      } catch {
        return undefined;
      }
      if (stat.isSymbolicLink()) {
        const link = readlinkSync(join(rootfsDir, candidate));
        current = normalize(join(isAbsolute(link) ? '/' : resolved, link, ...parts.slice(i + 1)));
        relinked = true;
        break;
      }
      resolved = candidate;
    }
    if (!relinked) return join(rootfsDir, resolved);
  }
  return undefined;
}

/** Finds argv[0] in the rootfs the way execvp would with the container's PATH; the path as the container sees it. */
export function resolveInRootfs(rootfsDir: string, program: string, pathVar: string | undefined): string | undefined {
  const canRun = (path: string): boolean => {
    const host = pathInRootfs(rootfsDir, path);
    if (host === undefined) return false;
    try {
      accessSync(host, constants.X_OK);
      return statSync(host).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return canRun(program) ? program : undefined;
  for (const dir of (pathVar ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    if (dir !== '' && canRun(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** The argv that enters the rootfs and runs the program there as the image's user (after the mounts). */
export function enterRootfsArgv(unshare: string, rootfs: ImageRootfs, workingDir: string | undefined, argv: string[]): string[] {
  return [unshare, `--root=${rootfs.dir}`, `--wd=${workingDir ?? '/'}`, `--setgid=${rootfs.gid}`, `--setuid=${rootfs.uid}`, '--', ...argv];
}

/** HOME for the image's user, from the rootfs's /etc/passwd (what a container runtime sets), else `/`. */
export function homeInRootfs(rootfsDir: string, uid: number, readFile: (path: string) => string): string {
  try {
    const line = readFile(join(rootfsDir, 'etc/passwd')).split('\n').find((l) => l.split(':')[2] === String(uid));
    return line?.split(':')[5] || '/';
  } catch {
    return '/';
  }
}
