import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'submitter',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-bundle.ts'],
    // One file at a time: the real-Ray file starts a Ray head (CPU-heavy on a 2-core machine), and the
    // emulator scenarios assert on timing bounds.
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
