import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'oci-image',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // The image test builds both images once (node's layer is ~100 MB to gzip): files run one at a time.
    fileParallelism: false,
    // Files share no module state: one module graph per worker instead of a fresh one per file (#27).
    isolate: false,
  },
});
