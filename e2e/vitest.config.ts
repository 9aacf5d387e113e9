import { defineConfig } from 'vitest/config';

const realRaySlot = new URL('../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Each file starts one sandbox (API server, kubelet, operator, pods as processes): one at a time on 2 cores;
    // the scenarios inside a file run concurrently on that sandbox, each in its own namespace.
    fileParallelism: false,
    // Real-Ray files hold a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
