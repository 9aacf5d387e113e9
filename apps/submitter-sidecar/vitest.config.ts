import { defineConfig } from 'vitest/config';

const realRaySlot = new URL('../../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

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
    // Files share no module state: one module graph per worker instead of a fresh one per file (#27).
    isolate: false,
    // The real-Ray file holds a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
