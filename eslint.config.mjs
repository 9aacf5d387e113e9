// Flat config: typescript-eslint's recommended rules everywhere, plus the boundary that keeps
// @rayjob/core pure (no I/O modules), which the architecture depends on.
import tseslint from 'typescript-eslint';

const ioModules = [
  'node:fs', 'node:fs/promises', 'node:http', 'node:https', 'node:net', 'node:dns', 'node:child_process',
  'node:worker_threads', 'node:cluster', 'node:dgram', 'node:tls', 'node:http2', 'node:process',
  'fs', 'fs/promises', 'http', 'https', 'net', 'dns', 'child_process', 'tls', 'http2', 'process',
  'undici', 'ws', '@kubernetes/client-node', 'pino', 'prom-client',
];

const ioPaths = ioModules.map((name) => ({ name, message: '@rayjob/core is pure: do I/O in the caller and pass the result in.' }));
const nodePattern = { group: ['node:*'], message: '@rayjob/core is pure: no node: modules.' };
// core's layers, bottom up: contracts, schema, quantity, go-text, conditions; validation, crd; builders; rayjob and
// raycluster (each controller's decisions). No import goes back up: the builders take the few settings they need as
// input instead of importing rayjob's.
const upward = (dirs) => ({
  group: dirs.map((d) => `**/${d}/**`),
  message: 'core\'s layers import downwards only (contracts/schema < validation/crd < builders < rayjob/raycluster): take the value as input.',
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '**/.nx/**', '**/out-tsc/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The leaf every package imports (Kubernetes shapes, times, equality, image references): pure like core.
    files: ['packages/kube-model/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ioModules.map((name) => ({ name, message: '@rayjob/kube-model is pure: no I/O.' })), patterns: [{ group: ['node:*', '@rayjob/*'], message: '@rayjob/kube-model is the leaf: no node: modules, no other workspace package.' }] }],
      'no-restricted-globals': ['error', { name: 'fetch', message: '@rayjob/kube-model is pure.' }, { name: 'process', message: '@rayjob/kube-model is pure.' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: '@rayjob/kube-model takes the time as input.' }],
    },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ioPaths, patterns: [nodePattern] }],
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
  {
    // Same rule as above (a later block replaces its options), plus the layer boundary.
    files: ['packages/core/src/builders/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ioPaths, patterns: [nodePattern, upward(['rayjob'])] }] },
  },
  {
    files: ['packages/core/src/{contracts,schema,quantity,go-text,conditions,validation,crd}/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ioPaths, patterns: [nodePattern, upward(['rayjob', 'raycluster', 'builders'])] }] },
  },
);
