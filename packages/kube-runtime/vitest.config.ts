import { configDefaults, defineConfig } from 'vitest/config';

// Leader election asserts takeovers within a lease's wall-clock bound: it runs alone, after the others.
const alone = ['test/leader-election.test.ts'];

export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    testTimeout: 20_000,
    // beforeEach forks the sandbox API server, which takes seconds on a loaded machine.
    hookTimeout: 40_000,
    // Files share no state: one module graph per worker instead of a fresh one per file (#27: the per-file
    // re-import was most of this project's CPU).
    isolate: false,
    // A test file fails if a process it started is still running after it (per file, also without isolation).
    setupFiles: ['@rayjob/test-support/setup/no-leftover-processes'],
    projects: [
      {
        extends: true,
        test: {
          name: 'kube-runtime',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone],
          // Vitest's default on a 2-core machine is one worker (cores - 1); these files wait on their own API
          // servers (ephemeral ports), so two at once.
          maxWorkers: 2,
        },
      },
      { extends: true, test: { name: 'kube-runtime-alone', include: alone, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
