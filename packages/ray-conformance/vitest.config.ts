import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'ray-conformance',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // A real Ray head takes 10-25 s to start on 2 cores; each file bounds its own waits.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Heads are heavy (~1.7 GB RSS, several processes): never run two test files at once.
    fileParallelism: false,
  },
});
