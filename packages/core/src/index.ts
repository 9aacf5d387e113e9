export * from './contracts/submitter-cli.ts';
export * from './contracts/submitter-exit-codes.ts';
export * from './contracts/termination-message.ts';
export * from './schema/index.ts';
// Both modules export `RayJobStatus`; the package-level name stays Ray's job status (the contracts' meaning).
// The RayJob's status object is exported as `RayJobResourceStatus`.
export type { RayJobStatus } from './contracts/termination-message.ts';
export * from './crd/index.ts';
export * from './validation/index.ts';
export * from './builders/index.ts';
export * from './go-text/time-format.ts';
export * from './conditions/condition-set.ts';
export * from './rayjob/index.ts';
export * from './quantity/quantity.ts';
export * from './raycluster/index.ts';
