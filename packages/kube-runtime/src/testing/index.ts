// Test helpers for code built on @rayjob/kube-runtime.
export { createFakeClock } from './fake-clock.ts';
export type { FakeClock } from './fake-clock.ts';
