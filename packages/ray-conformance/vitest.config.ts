import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const realRaySlot = new URL('../../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

export default defineConfig({
  // Run from anywhere (repo root or the package): test paths are relative to this folder.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'ray-conformance',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // A real Ray head takes 10-25 s to start on 2 cores; each file bounds its own waits.
    testTimeout: 300_000,
    hookTimeout: 240_000,
    // Heads are heavy (~1.7 GB RSS, several processes): never run two test files at once.
    fileParallelism: false,
    // Each file holds a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs), and each head start the
    // machine's Ray start lock: heads never start beside another project's Ray node.
    setupFiles: [realRaySlot],
    // Scenarios on the shared head run a few at a time: each job starts a Ray worker process.
    maxConcurrency: 3,
  },
});
