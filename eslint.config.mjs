// Flat config: typescript-eslint's recommended rules everywhere, plus the boundary that keeps
// @rayjob/core pure (no I/O modules), which the architecture depends on.
import tseslint from 'typescript-eslint';

const ioModules = [
  'node:fs', 'node:fs/promises', 'node:http', 'node:https', 'node:net', 'node:dns', 'node:child_process',
  'node:worker_threads', 'node:cluster', 'node:dgram', 'node:tls', 'node:http2', 'node:process',
  'fs', 'fs/promises', 'http', 'https', 'net', 'dns', 'child_process', 'tls', 'http2', 'process',
  'undici', 'ws', '@kubernetes/client-node', 'pino', 'prom-client',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '**/.nx/**', '**/out-tsc/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ioModules.map((name) => ({ name, message: '@rayjob/core is pure: do I/O in the caller and pass the result in.' })),
        patterns: [{ group: ['node:*'], message: '@rayjob/core is pure: no node: modules.' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'fetch', message: '@rayjob/core is pure: no network.' },
        { name: 'process', message: '@rayjob/core is pure: take settings as input.' },
        { name: 'setTimeout', message: '@rayjob/core is pure: return requeueAfter instead.' },
      ],
      'no-restricted-properties': ['error',
        { object: 'Date', property: 'now', message: '@rayjob/core takes `now` as input.' },
        { object: 'Math', property: 'random', message: '@rayjob/core takes its randomness as input.' },
      ],
    },
  },
);
