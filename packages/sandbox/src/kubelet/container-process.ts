// Starts one container as a local process group. The process gets the pod's network namespace
// (netns mode) and a private mount namespace in which the pod's volumes, its own termination-log
// file, /etc/hosts and /etc/resolv.conf are bind-mounted at their real paths, so programs see
// /dev/termination-log and /var/run/secrets/... exactly where Kubernetes puts them. The argv is
// exec'd as given (a tiny `sh` prologue does the mounts, then `exec "$@"`: no re-parsing).
// stdout and stderr go straight to the container's log file (the file descriptor is inherited).
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enterRootfsArgv, resolveInRootfs, type ImageRootfs } from './image-rootfs.ts';

export interface BindMount {
  source: string;
  target: string;
  readOnly: boolean;
  /** Carry mounts below the source along (used for the container's /tmp). */
  recursive?: boolean;
}

const underTmp = (path: string): boolean => path === '/tmp' || path.startsWith('/tmp/');

/**
 * Where the sandbox's own programs live (this checkout with its node_modules, and the node binary). An image
 * carries its programs; ours are host files, so a container must keep seeing them even when the checkout sits
 * under /tmp (CI clones often do) and /tmp is replaced by the container's own.
 */
export function programRoots(): string[] {
  const checkout = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');
  return [checkout, dirname(process.execPath)];
}

/**
 * Gives the container its own /tmp. Sources usually live under the host's /tmp (the sandbox dir),
 * so /tmp is replaced last; mounts whose target is under /tmp are first bound inside the new tmp
 * directory (on the host path) and travel with it (recursive bind). A volume mounted at /tmp itself
 * becomes the container's /tmp. Program roots under /tmp stay visible at their host paths.
 */
export function withPrivateTmp(mounts: BindMount[], tmpDir: string, keep: readonly string[] = programRoots()): BindMount[] {
  const own = mounts.find((m) => m.target === '/tmp');
  const base = own?.source ?? tmpDir;
  const kept: BindMount[] = keep.filter((p) => underTmp(p) && p !== '/tmp').map((p) => ({ source: p, target: p, readOnly: false, recursive: true }));
  mounts = [...kept, ...mounts];
  const outside = mounts.filter((m) => !underTmp(m.target));
  const inside = mounts
    .filter((m) => underTmp(m.target) && m.target !== '/tmp')
    .map((m) => ({ ...m, target: join(base, m.target.slice('/tmp/'.length)) }));
  return [...outside, ...inside, { source: base, target: '/tmp', readOnly: own?.readOnly ?? false, recursive: true }];
}

export interface ContainerLaunch {
  argv: string[];
  env: Record<string, string>;
  workingDir: string | undefined;
  /** Network namespace to enter; undefined runs in the host network namespace. */
  netns: string | undefined;
  mounts: BindMount[];
  logFile: string;
  /** Directory the process starts in before the prologue (must exist). */
  baseDir: string;
  /** Where to write the container's mount table (an fstab the prologue mounts in one `mount -a -T`). */
  mountTable: string;
  /** Hostname inside the container's own UTS namespace (the pod's hostname). */
  hostname: string;
  /** Run inside this unpacked image rootfs (mounts' targets already inside it: rootfsMounts). */
  rootfs?: ImageRootfs;
}

export interface ContainerExit {
  exitCode: number;
  signal: number | undefined;
}

export type LaunchResult =
  | { ok: true; pid: number; exited: Promise<ContainerExit> }
  | { ok: false; reason: 'StartError'; exitCode: number; message: string };

// Mount the container's mount table in order (one `mount -a -T`: a mount process per bind mount was most of a
// container start's CPU), cd to the working directory, then exec the argv.
const prologue = [
  'hn="$1"; wd="$2"; table="$3"; shift 3',
  'if [ -n "$hn" ]; then hostname "$hn" || exit 128; fi',
  'if [ -n "$table" ]; then mount -a -T "$table" || exit 128; fi',
  'if [ -n "$wd" ]; then cd "$wd" || exit 128; fi',
  'exec "$@"',
].join('\n');

/**
 * A path as an fstab field: util-linux's octal escapes for the backslash and for every character its parser splits
 * fields or lines on (C's isspace: space, \t, \n, \v, \f, \r); unescaped, a path holding one would be cut there.
 */
const fstabField = (path: string): string => path.replace(/[\\ \t\n\v\f\r]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/**
 * The bind mounts as an fstab, in order: `bind` or `rbind` (mounts below the source carried along), with `,ro`
 * where read-only (util-linux remounts it read-only). `mount -a` mounts the lines in order and fails if any fails.
 */
export function mountTable(mounts: BindMount[]): string {
  // A read-only recursive bind is a volume mounted read-only at /tmp itself (withPrivateTmp): `rbind,ro` makes its
  // top mount read-only as Kubernetes does (the binds carried below it keep their own options).
  const options = (m: BindMount): string => `${m.recursive === true ? 'rbind' : 'bind'}${m.readOnly ? ',ro' : ''}`;
  return mounts.map((m) => `${fstabField(m.source)} ${fstabField(m.target)} none ${options(m)} 0 0\n`).join('');
}

// The PID namespace's init: a shell that runs the container (prologue, then the program) as its child and exits
// with its status (128+n after signal n, what Kubernetes reports as exitCode), as `docker run --init` does. The
// program itself must not be PID 1: init ignores every signal it has no handler for, so a bash loop or `sleep`
// would shrug off the kubelet's SIGTERM. The kubelet signals the whole process group, which reaches the prologue
// and the program with their default dispositions.
const init = '"$@"; exit $?';

/** Finds argv[0] the way execvp would, with the container's PATH. */
export function resolveExecutable(program: string, pathVar: string | undefined): string | undefined {
  const canRun = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return canRun(program) ? program : undefined;
  for (const dir of (pathVar ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin').split(delimiter)) {
    if (dir !== '' && canRun(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/** Mount points this process had to create on the host (the top-most path each creation added). */
const createdMountPoints: string[] = [];

/**
 * Makes sure each bind target exists (an empty file or directory) so it can serve as a mount point. A bind
 * mount needs an existing target, so paths such as /dev/termination-log are created on the host; they are
 * remembered and removed again by `removeCreatedMountPoints`.
 */
export function ensureMountPoint(source: string, target: string): void {
  if (existsSync(target)) return;
  let top = target;
  while (!existsSync(dirname(top))) top = dirname(top);
  if (statSync(source).isDirectory()) {
    mkdirSync(target, { recursive: true });
  } else {
    mkdirSync(dirname(target), { recursive: true });
    closeSync(openSync(target, 'a'));
  }
  createdMountPoints.push(top);
}

/**
 * Removes the mount points this process created, newest first, as long as they are still empty (an empty file,
 * or directories holding nothing but what we created). Call it only when no sandbox on the machine still runs.
 */
export function removeCreatedMountPoints(): void {
  for (const path of createdMountPoints.splice(0).reverse()) removeIfEmpty(path);
}

function removeIfEmpty(path: string): void {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) removeIfEmpty(join(path, entry));
      if (readdirSync(path).length === 0) rmdirSync(path);
    } else if (stat.size === 0) {
      unlinkSync(path);
    }
  } catch {
    // Gone already, or busy (still a mount point somewhere): leave it.
  }
}

export function signalNumber(name: NodeJS.Signals | null): number | undefined {
  if (name === null) return undefined;
  return (osConstants.signals as Record<string, number>)[name];
}

export function launchContainer(launch: ContainerLaunch, tools: { ip: string; unshare: string; sh: string }): LaunchResult {
  const [program] = launch.argv;
  if (program === undefined) {
    return { ok: false, reason: 'StartError', exitCode: 128, message: 'no command specified: the container has no command, args or image entrypoint' };
  }
  const rootfs = launch.rootfs;
  const found = rootfs !== undefined ? resolveInRootfs(rootfs.dir, program, launch.env.PATH) : resolveExecutable(program, launch.env.PATH);
  if (found === undefined) {
    return { ok: false, reason: 'StartError', exitCode: 128, message: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "${program}": executable file not found in $PATH: unknown` };
  }
  for (const mount of launch.mounts) ensureMountPoint(mount.source, mount.target);
  mkdirSync(dirname(launch.logFile), { recursive: true });
  const logFd = openSync(launch.logFile, 'a');
  if (launch.mounts.length > 0) writeFileSync(launch.mountTable, mountTable(launch.mounts));
  // With a rootfs, the prologue (the host's sh) mounts, then unshare enters the rootfs as the image's user.
  const argvInside = rootfs !== undefined ? enterRootfsArgv(tools.unshare, rootfs, launch.workingDir, launch.argv) : launch.argv;
  const inner = [tools.sh, '-c', init, 'init', tools.sh, '-c', prologue, 'sh', launch.hostname, rootfs !== undefined ? '' : (launch.workingDir ?? ''), launch.mounts.length > 0 ? launch.mountTable : '', ...argvInside];
  // A private mount namespace keeps the bind mounts off the host; a UTS namespace lets the container see the
  // pod's hostname; a PID namespace with its own /proc makes `ps`, `pgrep` and `pkill -f` (in the container and
  // through `kubectl exec`) see this container's processes only, as in a real container, and ends them all
  // when the container ends. unshare stays as the parent (the pid the kubelet tracks) and exits with the
  // container's status; --kill-child takes the container down should unshare itself be killed.
  const namespaces = [tools.unshare, '--mount', '--uts', '--pid', '--fork', '--kill-child', '--mount-proc', '--propagation', 'private'];
  const argv = launch.netns !== undefined ? [tools.ip, 'netns', 'exec', launch.netns, ...namespaces, ...inner] : [...namespaces, ...inner];
  const child = spawn(argv[0] ?? '', argv.slice(1), {
    cwd: launch.baseDir,
    env: launch.env,
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = new Promise<ContainerExit>((resolve) => {
    child.on('error', () => resolve({ exitCode: 128, signal: undefined }));
    child.on('exit', (code, signal) => {
      const number = signalNumber(signal);
      resolve({ exitCode: code ?? 128 + (number ?? 0), signal: number });
    });
  });
  return { ok: true, pid: child.pid ?? -1, exited };
}

/**
 * The arguments that make `nsenter` run a command inside a running container (exec sessions, exec probes): the
 * mount, network, UTS and PID namespaces and the working directory of the container's program (the grandchild
 * of the unshare the kubelet tracks as `pid`, under the namespace's init). Until the program is there, unshare's
 * own namespaces (its pid_for_children is the container's PID namespace).
 */
export function enterContainerArgs(pid: number): string[] {
  const init = firstChild(pid);
  const program = init === undefined ? undefined : firstChild(init);
  if (program === undefined) return ['-t', String(pid), '-m', '-n', '-u', `--pid=/proc/${pid}/ns/pid_for_children`, '--wd'];
  // -r: the program's root (an image's rootfs), so `kubectl exec` sees the files the container sees.
  return ['-t', String(program), '-m', '-n', '-u', '-p', '-r', '--wd'];
}

function firstChild(pid: number): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first === undefined || first === '' ? undefined : Number(first);
  } catch {
    return undefined;
  }
}

/** Signals the container's whole process group (the container's pid is the group leader). */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Every process of a container carries this variable (children inherit it even when they start
 * their own session), so that when the container's main process ends, the rest can be found and
 * killed — what the end of a container's PID namespace does in Kubernetes.
 */
export const containerMarkerVariable = 'RAYJOB_SANDBOX_CONTAINER_ID';

export function killContainerRemnants(containerId: string): number {
  const needle = Buffer.from(`${containerMarkerVariable}=${containerId}\0`);
  let killed = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue;
    }
    if (environ.includes(needle)) {
      try { process.kill(Number(entry), 'SIGKILL'); killed += 1; } catch { /* gone */ }
    }
  }
  return killed;
}
