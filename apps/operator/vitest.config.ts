import { configDefaults, defineConfig } from 'vitest/config';

const realRaySlot = new URL('../../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

// Files that run alone, after the others: real Ray heads are heavy (one at a time, never beside another file),
// and leader election asserts a takeover within a wall-clock bound. Projects run in parallel unless their
// `sequence.groupOrder` differs: the alone group (1) starts once the others (0) have finished.
const alone = ['test/raycluster-real-ray.test.ts', 'test/leader-election.test.ts'];

export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files share no module state (each starts its own sandbox; the RBAC records are named by pid and sequence):
    // one module graph per worker instead of a fresh one per file (#27).
    isolate: false,
    // Real-Ray files (of both projects) hold a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    projects: [
      {
        extends: true,
        test: {
          name: 'operator',
          sequence: { groupOrder: 0 },
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone],
          // Integration files each start a sandbox (API server, kubelet, pods as processes) and mostly wait on
          // emulated jobs and timers: two at a time keeps 2 cores busy without starving either (Vitest's own
          // default there is one worker).
          maxWorkers: 2,
          // Issue #9's least-privilege check, for the files of both projects: after a whole run, the RBAC in
          // deploy/ must be exactly what the operator's calls across the suite needed
          // (test/support/least-privilege-check.ts).
          globalSetup: ['test/support/least-privilege-check.ts'],
        },
      },
      { extends: true, test: { name: 'operator-alone', include: alone, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
