import { defineConfig } from 'vitest/config';

const realRaySlot = new URL('../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Each file starts one sandbox (API server, kubelet, operator, pods as processes): one at a time on 2 cores;
    // the scenarios inside a file run concurrently on that sandbox, each in its own namespace. Two at a time was
    // measured (clean CI of b9333d2): e2e 454 -> 329 s, but the real-Ray runs beside it slowed more (e2e's real-Ray
    // file 233 -> 340 s, ray-conformance 196 -> 316 s) and `npm test` took 1,177 s against 1,145.
    fileParallelism: false,
    // Real-Ray files hold a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
