import { configDefaults, defineConfig } from 'vitest/config';

// The fault file asserts a reply within 600 ms of wall clock: it runs alone, after the others.
const alone = ['test/faults.test.ts'];

export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    testTimeout: 15_000,
    // Files share no state: one module graph per worker instead of a fresh one per file (#27: the per-file
    // re-import was most of this project's CPU).
    isolate: false,
    // Per file (setup files run for each file also without isolation): stop the emulators each test started, then
    // fail the file if a process it started is still running.
    setupFiles: ['test/support/stop-started.ts', '@rayjob/test-support/setup/no-leftover-processes'],
    projects: [
      {
        extends: true,
        test: {
          name: 'ray-emulator',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone],
          // Vitest's default on a 2-core machine is one worker (cores - 1); each file starts its own emulators on
          // ephemeral ports and mostly waits on emulated job steps, so two at once.
          maxWorkers: 2,
        },
      },
      { extends: true, test: { name: 'ray-emulator-alone', include: alone, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
