import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'submitter',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-bundle.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
