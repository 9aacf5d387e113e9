import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'kube-model',
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
