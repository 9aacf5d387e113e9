import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'kube-runtime',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // beforeEach forks the sandbox API server, which takes seconds on a loaded machine.
    hookTimeout: 40_000,
  },
});
