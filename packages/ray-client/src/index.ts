export { createRayClient, type RayClient, type CallOptions, type SubmitAccepted } from './client.ts';
export { validateRayClientOptions, type RayClientOptions } from './options.ts';
export { parseRayAddress, type ParsedAddress } from './address.ts';
export type { TlsOptions } from './http-transport.ts';
export { createConnectionPool, type ConnectionPool, type ConnectionPoolOptions } from './connection-pool.ts';
export type { TailOptions, TailResult } from './log-tail.ts';
export type { LogStream } from './log-stream.ts';
export type { NodeLiveness } from './node-liveness.ts';
export { judgeHeadNode, type HeadNodeAnswer } from './head-node.ts';
export { ok, isOk, type RayResult, type RayFailure, type UnavailableCause } from './result.ts';
export {
  RayJobStatusSchema,
  RayJobStatusValues,
  JobDetailsSchema,
  VersionInfoSchema,
  SubmitRequestSchema,
  isTerminalStatus,
  type RayJobStatus,
  type JobDetails,
  type VersionInfo,
  type SubmitRequest,
} from './schemas.ts';
export { compareRayVersions, gateSubmitBody, submitFieldMinVersion } from './version-gate.ts';
export { makeRedactor, type Redactor } from './redact.ts';
