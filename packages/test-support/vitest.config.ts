import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'test-support',
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
