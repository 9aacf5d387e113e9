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
    // Files share no module state (each sandbox claims its own pod subnet, ports and temp dirs): one module graph
    // per worker instead of a fresh one per file, which cost about a CPU-second per file (#27).
    isolate: false,
    // The real-Ray file holds the machine's one real-Ray slot (tools/ci/real-ray-slot.mjs).
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
