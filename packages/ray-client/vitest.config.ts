import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'ray-client',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
    // Files share no state: one module graph per worker instead of a fresh one per file (#27: the per-file
    // re-import was most of this project's CPU).
    isolate: false,
    // Per file (setup files run for each file also without isolation): stop what each test started, then fail the
    // file if a process it started is still running.
    setupFiles: ['test/support/stop-started.ts', '@rayjob/test-support/setup/no-leftover-processes'],
  },
});
