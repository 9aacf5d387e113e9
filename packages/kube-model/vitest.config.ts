import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'kube-model',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // purity.test.ts's first lint loads ESLint's config and the TypeScript parser: over Vitest's default 5 s when
    // npm test runs it beside the operator's suite on 2 cores (as core's purity test, which has 60 s).
    testTimeout: 30_000,
    // Files share no state: one module graph per worker instead of a fresh one per file (#27: the per-file
    // re-import was most of this project's CPU).
    isolate: false,
  },
});
