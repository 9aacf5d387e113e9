// The shared libraries node links and the CA certificates, taken from Debian's packages (as distroless does):
// exact versions and sha256 pinned in images.lock.json, downloaded by apt into a private state directory (the
// machine's own apt configuration and dpkg architectures stay untouched; arm64 needs no `dpkg --add-architecture`),
// and read with dpkg-deb without installing anything.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar-stream';

export interface PinnedDeb {
  name: string;
  version: string;
  /** Debian architecture (amd64, arm64, all). */
  arch: string;
  sha256: string;
}

export interface DebFile {
  path: string;
  type: 'file' | 'symlink';
  mode: number;
  data?: Buffer;
  target?: string;
}

/** dpkg's file name for a package: an epoch's colon becomes %3a. */
const debFileName = (deb: PinnedDeb): string => `${deb.name}_${deb.version.replace(/:/g, '%3a')}_${deb.arch}.deb`;

const sha256Hex = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

function aptOptions(stateDir: string, archs: string[]): string[] {
  const options = [
    `Dir::State::Lists=${join(stateDir, 'lists')}`,
    `Dir::Cache=${join(stateDir, 'cache')}`,
    'Debug::NoLocking=1',
    'APT::Sandbox::User=root',
    'APT::Architectures::=',
    ...archs.filter((a) => a !== 'all').map((a) => `APT::Architectures::=${a}`),
  ];
  return options.flatMap((o) => ['-o', o]);
}

/**
 * The pinned .debs as files in `cacheDir` (downloaded once; each checked against its pinned sha256). A version
 * the mirror no longer carries fails with the command that refreshes the pins.
 */
export function fetchDebs(debs: PinnedDeb[], cacheDir: string): Map<PinnedDeb, string> {
  const debDir = join(cacheDir, 'debs');
  mkdirSync(debDir, { recursive: true });
  const missing = debs.filter((deb) => !existsSync(join(debDir, debFileName(deb))));
  if (missing.length > 0) {
    const stateDir = join(cacheDir, 'apt');
    for (const dir of ['lists/partial', 'cache/archives/partial']) mkdirSync(join(stateDir, dir), { recursive: true });
    const options = aptOptions(stateDir, [...new Set(debs.map((d) => d.arch))]);
    execFileSync('apt-get', [...options, '-qq', 'update'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const specs = missing.map((d) => `${d.name}${d.arch === 'all' ? '' : `:${d.arch}`}=${d.version}`);
    try {
      execFileSync('apt-get', [...options, '-qq', 'download', ...specs], { cwd: debDir, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
      throw new Error(`apt-get download ${specs.join(' ')} failed: ${stderr.trim()}\nIf Debian replaced a pinned version, refresh the pins: npm run images -- --refresh-debian-pins`);
    }
  }
  const files = new Map<PinnedDeb, string>();
  for (const deb of debs) {
    const file = join(debDir, debFileName(deb));
    const actual = sha256Hex(readFileSync(file));
    if (actual !== deb.sha256) throw new Error(`${file}: sha256 ${actual}, images.lock.json pins ${deb.sha256}`);
    files.set(deb, file);
  }
  return files;
}

/** The candidate versions apt offers now (for refreshing the pins), with the sha256 of each downloaded .deb. */
export function currentDebs(names: Array<{ name: string; arch: string }>, cacheDir: string): PinnedDeb[] {
  const stateDir = join(cacheDir, 'apt');
  for (const dir of ['lists/partial', 'cache/archives/partial']) mkdirSync(join(stateDir, dir), { recursive: true });
  const options = aptOptions(stateDir, [...new Set(names.map((n) => n.arch))]);
  execFileSync('apt-get', [...options, '-qq', 'update'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const fresh = join(cacheDir, 'debs-refresh');
  mkdirSync(fresh, { recursive: true });
  const specs = names.map((n) => (n.arch === 'all' ? n.name : `${n.name}:${n.arch}`));
  execFileSync('apt-get', [...options, '-qq', 'download', ...specs], { cwd: fresh, stdio: ['ignore', 'ignore', 'inherit'] });
  const downloaded = readdirSync(fresh);
  return names.map(({ name, arch }) => {
    const file = downloaded.find((f) => f.startsWith(`${name}_`) && f.endsWith(`_${arch}.deb`));
    if (file === undefined) throw new Error(`apt-get download ${name}:${arch} left no .deb`);
    const version = decodeURIComponent(file.slice(name.length + 1, -`_${arch}.deb`.length));
    return { name, version, arch, sha256: sha256Hex(readFileSync(join(fresh, file))) };
  });
}

/** The files of a .deb's data archive that `keep` selects (paths without the leading "./"). */
export async function debFiles(debFile: string, keep: (path: string) => boolean): Promise<DebFile[]> {
  const tar = execFileSync('dpkg-deb', ['--fsys-tarfile', debFile], { maxBuffer: 1 << 30 });
  const files: DebFile[] = [];
  const reader = extract();
  const done = (async () => {
    for await (const entry of reader) {
      const path = entry.header.name.replace(/^\.?\/+/, '');
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (path === '' || !keep(path)) continue;
      if (entry.header.type === 'file') files.push({ path, type: 'file', mode: (entry.header.mode ?? 0o644) & 0o7777, data: Buffer.concat(chunks) });
      else if (entry.header.type === 'symlink') files.push({ path, type: 'symlink', mode: 0o777, target: entry.header.linkname ?? '' });
      else if (entry.header.type !== 'directory') throw new Error(`${debFile}: ${path} is a ${entry.header.type}; only files, symlinks and directories are expected`);
    }
  })();
  reader.end(tar);
  await done;
  return files;
}

/**
 * What node loads, from `ldd node`: the dynamic loader, libc, libm, libdl, libpthread, libstdc++, libgcc_s; plus
 * what glibc itself opens at run time (libresolv and the NSS modules for files and DNS lookups, librt). The
 * rest of libc6 (libmvec, libnsl, malloc debugging, profiling, gconv modules) is never loaded: left out.
 */
const runtimeLibraries = /^(ld-linux[-a-z0-9_]*\.so\.[0-9]+|lib(c|m|dl|pthread|rt|resolv|nss_files|nss_dns)\.so\.[0-9]+|libgcc_s\.so\.1|libstdc\+\+\.so\.6(\.[0-9.]+)?)$/;

/** Those libraries (and the dynamic loader's links) plus each package's copyright; no docs or tools. */
export function isRuntimeLibrary(path: string): boolean {
  if (/^usr\/share\/doc\/[^/]+\/copyright$/.test(path)) return true;
  const match = /^(usr\/)?lib(32|64)?\/([^/]+\/)?([^/]+)$/.exec(path);
  return match?.[4] !== undefined && runtimeLibraries.test(match[4]);
}
