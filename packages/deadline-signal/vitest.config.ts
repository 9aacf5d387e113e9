import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'deadline-signal',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // One file, no shared state: no per-file module graph needed.
    isolate: false,
  },
});
