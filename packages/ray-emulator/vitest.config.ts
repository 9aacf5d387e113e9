import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'ray-emulator',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 15_000,
  },
});
