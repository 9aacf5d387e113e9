import { defineConfig } from 'vitest/config';

const realRaySlot = new URL('../tools/ci/real-ray-slot.mjs', import.meta.url).pathname;

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Each file starts one sandbox (API server, kubelet, operator, pods as processes) and runs its scenarios
    // concurrently on it, each in its own namespace. Two files at a time: the long ones (kubectl, sandbox: ~180 s
    // each, most of it scenarios that run in real seconds, e.g. C8's 110 s job) mostly wait, ~0.6 core for the
    // run with one at a time (clean CI 2026-12-06: 454 s, 257 CPU-s). Files share nothing: each has its own
    // sandbox, subnet, temp folders and (isolated) process.
    maxWorkers: 2,
    // Real-Ray files hold a place in the machine's real-Ray slot (tools/ci/real-ray-slot.mjs).
    setupFiles: [realRaySlot],
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
