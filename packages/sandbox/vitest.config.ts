import { configDefaults, defineConfig } from 'vitest/config';

const realRaySlot = new URL('../../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

// Files that run alone, after the others: the real-Ray file starts a Ray head (heavy), and the node lifecycle
// file gives heartbeats a 1.5 s grace period that a neighbour file's CPU use could stretch.
const alone = ['test/faults/real-ray.test.ts', 'test/node-lifecycle/heartbeats.test.ts'];

export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'node',
    // Files start real processes, network namespaces and servers on a shared 2-core machine: 45 s per test and hook,
    // while every wait inside stays bounded by its own (shorter) deadline. Set here, not by `vi.setConfig` in a
    // shared helper: Vitest resets the config after each file and a worker imports a helper once, so a helper's
    // setConfig held for the first file that imported it only (the kubelet harness's did; both `kubectl logs` tests
    // of kubelet/restarts-and-logs then timed out at 20 s under load when workers were shared, f44ec79).
    testTimeout: 45_000,
    hookTimeout: 45_000,
    // Files share no module state (each sandbox claims its own pod subnet, ports and folders): one module graph per
    // worker instead of a fresh one per file, which cost about a CPU-second per file (#27).
    isolate: false,
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
