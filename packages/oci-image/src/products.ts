// What each image holds on top of the shared base and node layers, and how it starts: the product's esbuild
// bundle under /app/dist with a `#!/nodejs/bin/node` line on its entry, so the entry is executable by itself
// (no shell in the image: the kernel runs node on it, node gets SIGTERM directly), and the paths the
// Dockerfiles and the operator name (/submitter, /app/bin/submitter, /app/bin/operator) as links to it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { LayerEntry } from './layer-tar.ts';
import type { ImageConfig } from './oci-layout.ts';

export const nodePath = '/nodejs/bin/node';
export const imageEnv = ['PATH=/nodejs/bin:/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production', 'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt'];

export interface Product {
  name: 'submitter' | 'operator';
  repository: string;
  /** The app's directory in the checkout. */
  appDir: string;
  title: string;
  description: string;
  /** Runs the app's esbuild config with its output in `outDir`; returns the entry file's path there. */
  bundle: (repoRoot: string, outDir: string) => string;
  links: Array<{ path: string; target: string }>;
  config: Pick<ImageConfig, 'Entrypoint' | 'ExposedPorts'>;
}

const esbuild = (repoRoot: string, config: string, env: Record<string, string>): void => {
  execFileSync(process.execPath, [join(repoRoot, config)], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
};

export const products: Product[] = [
  {
    name: 'submitter',
    repository: 'ghcr.io/rayjob/submitter',
    appDir: 'apps/submitter-sidecar',
    title: 'ray-job-submitter',
    description: "A drop-in for `ray job submit` and KubeRay's light-weight submitter that never abandons a live Ray job.",
    bundle: (repoRoot, outDir) => {
      esbuild(repoRoot, 'apps/submitter-sidecar/esbuild.config.mjs', { SUBMITTER_BUNDLE_OUT_DIR: outDir });
      return 'submitter.mjs';
    },
    links: [
      { path: 'submitter', target: '/app/dist/submitter.mjs' },
      { path: 'app/bin/submitter', target: '../dist/submitter.mjs' },
    ],
    config: { Entrypoint: ['/submitter'] },
  },
  {
    name: 'operator',
    repository: 'ghcr.io/rayjob/operator',
    appDir: 'apps/operator',
    title: 'rayjob-operator',
    description: "A drop-in for KubeRay's operator (RayJob and RayCluster controllers).",
    bundle: (repoRoot, outDir) => {
      esbuild(repoRoot, 'apps/operator/esbuild.config.mjs', { OPERATOR_BUNDLE_OUT: join(outDir, 'operator.mjs') });
      return 'operator.mjs';
    },
    links: [{ path: 'app/bin/operator', target: '../dist/operator.mjs' }],
    config: { Entrypoint: ['/app/bin/operator'], ExposedPorts: { '8080/tcp': {}, '8082/tcp': {} } },
  },
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(dir, p)).isFile());
}

/** The app layer's entries: the fresh bundle (entry executable, with the node line) and the links. */
export function appEntries(product: Product, repoRoot: string): LayerEntry[] {
  const outDir = mkdtempSync(join(tmpdir(), `rayjob-${product.name}-bundle-`));
  try {
    const entry = product.bundle(repoRoot, outDir);
    const entries: LayerEntry[] = filesUnder(outDir).map((file) => {
      const data = readFileSync(join(outDir, file));
      const isEntry = relative('.', file) === entry;
      return { path: `app/dist/${file}`, type: 'file', mode: isEntry ? 0o755 : 0o644, data: isEntry ? Buffer.concat([Buffer.from(`#!${nodePath}\n`), data]) : data };
    });
    return [...entries, ...product.links.map((l): LayerEntry => ({ path: l.path, type: 'symlink', target: l.target }))];
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
