import { configDefaults, defineConfig } from 'vitest/config';

const realRaySlot = new URL('../../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

// Files that run alone, after the others: the real-Ray file starts a Ray head (heavy), and the node lifecycle
// file gives heartbeats a 1.5 s grace period that a neighbour file's CPU use could stretch.
const alone = ['test/faults/real-ray.test.ts', 'test/node-lifecycle/heartbeats.test.ts'];

export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Each file gets a fresh module graph (isolate stays on): with one graph per worker (#27, f44ec79) the clean CI
    // saw both `kubectl logs` tests of kubelet/restarts-and-logs time out (they pass alone in 8 s and 3 s), so some
    // module state outlives a file's sandbox; until it is found, isolation is worth its ~50 CPU-seconds.
    // The real-Ray file holds a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    projects: [
      {
        extends: true,
        test: {
          name: 'sandbox',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...alone],
          // Vitest's default on a 2-core machine is one worker (cores - 1). These files mostly wait on processes
          // and timers, and sandboxes are built to run side by side (each claims its own pod subnet): two at once.
          maxWorkers: 2,
        },
      },
      { extends: true, test: { name: 'sandbox-alone', include: alone, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
