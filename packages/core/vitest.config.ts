import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'core',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Property tests and the ESLint probe are CPU-bound; on 2 shared cores they need more than the 5 s default.
    testTimeout: 60_000,
    // Vitest's default on a 2-core machine is one worker (cores - 1); these files share nothing, so two.
    maxWorkers: 2,
    // Files share no state: one module graph per worker instead of a fresh one per file (#27: the per-file
    // re-import was most of this project's CPU).
    isolate: false,
    coverage: {
      provider: 'v8',
      enabled: true,
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      // Enforced: core is where correctness lives, so the run fails below 95 % of lines.
      thresholds: { lines: 95 },
    },
  },
});
