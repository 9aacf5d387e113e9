// createRayClient: the Jobs API as plain functions over one connection pool. Every call answers a RayResult.
import type * as z from 'zod/mini';
import { parseRayAddress, toWebSocketBase } from './address.ts';
import { classifyStatus } from './classify.ts';
import { createHttpTransport, type HttpOutcome, type TlsOptions } from './http-transport.ts';
import type { TailConfig, TailOptions, TailResult } from './log-tail.ts';
import { streamFromTail, type LogStream } from './log-stream.ts';
import { judgeNodeLiveness, type NodeLiveness } from './node-liveness.ts';
import { judgeHeadNode, type HeadNodeAnswer } from './head-node.ts';
import { makeRedactor } from './redact.ts';
import { ok, type RayResult } from './result.ts';
import {
  DeleteResponseSchema,
  JobDetailsSchema,
  JobListSchema,
  LogsResponseSchema,
  StopResponseSchema,
  SubmitRequestSchema,
  SubmitResponseSchema,
  VersionInfoSchema,
  type JobDetails,
  type SubmitRequest,
  type VersionInfo,
} from './schemas.ts';
import { gateSubmitBody } from './version-gate.ts';
import { validateRayClientOptions, type RayClientOptions } from './options.ts';

// The log tail's module (ws, and the zlib ws loads) is loaded by the first tail, not with the client: a submitter
// asks the dashboard several things before it tails, and its cold start to the first request is one of issue #27's
// goals (ws and zlib were ~7 ms of it).
// The module's promise is kept: an operator opens a tail for every running job, and each import() call would
// resolve the specifier again.
let tailModule: Promise<typeof import('./log-tail.ts')> | undefined;
const tailJobLogs = async (config: TailConfig, submissionId: string, options: TailOptions): Promise<TailResult> =>
  (await (tailModule ??= import('./log-tail.ts'))).tailJobLogs(config, submissionId, options);

export interface CallOptions {
  /** Overrides the client's per-request timeout for this call. */
  timeoutMs?: number;
  /** Aborts this call (in flight: the connection is dropped); it then answers `unavailable`, cause `aborted`. */
  signal?: AbortSignal;
}

export interface SubmitAccepted {
  submissionId: string;
  /** Fields left out because the server's Ray version does not know them (it would answer 400). */
  droppedFields: string[];
}

export interface RayClient {
  readonly baseUrl: string;
  getVersion(options?: CallOptions): Promise<RayResult<VersionInfo>>;
  submit(request: SubmitRequest, options?: CallOptions): Promise<RayResult<SubmitAccepted>>;
  getJob(submissionId: string, options?: CallOptions): Promise<RayResult<JobDetails>>;
  listJobs(options?: CallOptions): Promise<RayResult<JobDetails[]>>;
  stopJob(submissionId: string, options?: CallOptions): Promise<RayResult<{ stopped: boolean }>>;
  deleteJob(submissionId: string, options?: CallOptions): Promise<RayResult<{ deleted: boolean }>>;
  getLogs(submissionId: string, options?: CallOptions): Promise<RayResult<string>>;
  /** Log tail with a callback per chunk; resolves with how it ended. Ask for the status after any end. */
  tailLogs(submissionId: string, options: TailOptions): Promise<TailResult>;
  /** The same tail as an async iterator of chunks plus the end result. */
  streamLogs(submissionId: string, options?: Omit<TailOptions, 'onChunk'>): LogStream;
  gcsHealth(options?: CallOptions): Promise<RayResult<{ healthy: true }>>;
  nodeLiveness(nodeId: string, options?: CallOptions): Promise<NodeLiveness>;
  /**
   * One `GET /nodes?view=summary`, judged for any number of nodes: an operator asks once per cluster and
   * answers every job on it.
   */
  nodeTable(options?: CallOptions): Promise<(nodeId: string) => NodeLiveness>;
  /** The head node's address from `GET /nodes?view=summary` (see HeadNodeAnswer). */
  headNode(options?: CallOptions): Promise<HeadNodeAnswer>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

const defaultTimeoutMs = 10_000;

/** What every call of one client shares: its transport, the log tail's settings and the version it learnt. */
interface ClientParts {
  baseUrl: string;
  transport: ReturnType<typeof createHttpTransport>;
  tailConfig: TailConfig;
  /** A log tail ends with the client's signal too. */
  tailSignal: <T extends { signal?: AbortSignal }>(o: T) => T;
  cachedVersion: VersionInfo | undefined;
}

/** Throws an Error naming the bad option (never its secret value) when the options are unusable. */
export function createRayClient(options: RayClientOptions): RayClient {
  const c = clientParts(options);
  const { transport, tailConfig, tailSignal } = c;
  const jobPath = (id: string) => `/api/jobs/${encodeURIComponent(id)}`;
  return {
    baseUrl: c.baseUrl,
    getVersion: (call) => getVersion(c, call),
    submit: (request, call) => submit(c, request, call),
    getJob: async (id, call = {}) =>
      toResult(await transport.send('GET', jobPath(id), call), JobDetailsSchema, `GET ${jobPath(id)}`),
    listJobs: async (call = {}) => toResult(await transport.send('GET', '/api/jobs/', call), JobListSchema, 'GET /api/jobs/'),
    stopJob: async (id, call = {}) =>
      toResult(await transport.send('POST', `${jobPath(id)}/stop`, call), StopResponseSchema, `POST ${jobPath(id)}/stop`),
    deleteJob: async (id, call = {}) =>
      toResult(await transport.send('DELETE', jobPath(id), call), DeleteResponseSchema, `DELETE ${jobPath(id)}`),
    getLogs: async (id, call = {}) => {
      const result = toResult(await transport.send('GET', `${jobPath(id)}/logs`, call), LogsResponseSchema, `GET ${jobPath(id)}/logs`);
      return result.kind === 'ok' ? ok(result.value.logs) : result;
    },
    tailLogs: (id, tailOptions) => tailJobLogs(tailConfig, id, tailSignal(tailOptions)),
    streamLogs: (id, streamOptions = {}) => streamFromTail((o) => tailJobLogs(tailConfig, id, tailSignal(o)), streamOptions),
    gcsHealth: async (call = {}) => {
      const outcome = await transport.send('GET', '/api/gcs_healthz', call);
      if (outcome.kind === 'transport-error') return { kind: 'unavailable', cause: outcome.cause, message: outcome.message };
      if (outcome.status >= 200 && outcome.status <= 299) return ok({ healthy: true as const });
      return classifyStatus(outcome.status, outcome.body);
    },
    nodeLiveness: async (nodeId, call = {}) =>
      judgeNodeLiveness(nodeId, await transport.send('GET', '/nodes?view=summary', call)),
    nodeTable: async (call = {}) => {
      const outcome = await transport.send('GET', '/nodes?view=summary', call);
      return (nodeId) => judgeNodeLiveness(nodeId, outcome);
    },
    headNode: async (call = {}) => judgeHeadNode(await transport.send('GET', '/nodes?view=summary', call)),
    close: () => transport.close(),
  };
}

/** Checks the options, then builds the transport and the log tail's settings from them. */
function clientParts(options: RayClientOptions): ClientParts {
  const problems = validateRayClientOptions(options);
  if (problems.length > 0) throw new Error(`invalid Ray client options: ${problems.join('; ')}`);
  const address = parseRayAddress(options.address);
  if (!address.ok) throw new Error(`invalid Ray client options: ${address.error}`);

  const redact = makeRedactor([options.token, options.apiServerAuthorization, ...Object.values(options.headers ?? {})]);
  const headers: Record<string, string> = {
    'user-agent': 'rayjob-ray-client',
    ...lowerCaseKeys(options.headers ?? {}),
  };
  if (options.apiServerAuthorization !== undefined) headers['authorization'] = options.apiServerAuthorization;
  if (options.token !== undefined) headers['x-ray-authorization'] = `Bearer ${options.token}`;
  const tls: TlsOptions = options.tls ?? {};
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const lookup = options.lookup;
  const clientSignal = options.signal;
  return {
    baseUrl: address.baseUrl,
    transport: createHttpTransport({ baseUrl: address.baseUrl, headers, timeoutMs, tls, redact, ...(lookup && { lookup }), ...(clientSignal && { signal: clientSignal }), ...(options.pool && { pool: options.pool }) }),
    tailConfig: { wsBaseUrl: toWebSocketBase(address.baseUrl), headers, tls, defaultTimeoutMs: timeoutMs, redact, ...(lookup && { lookup }) },
    tailSignal: (o) => (clientSignal ? { ...o, signal: o.signal ? AbortSignal.any([o.signal, clientSignal]) : clientSignal } : o),
    cachedVersion: options.rayVersion ? { version: '4', ray_version: options.rayVersion } : undefined,
  };
}

function toResult<S extends z.ZodMiniType>(outcome: HttpOutcome, schema: S, what: string): RayResult<z.infer<S>> {
  if (outcome.kind === 'transport-error') {
    return { kind: 'unavailable', cause: outcome.cause, message: outcome.message };
  }
  if (outcome.status < 200 || outcome.status > 299) return classifyStatus(outcome.status, outcome.body);
  let json: unknown;
  try {
    json = JSON.parse(outcome.body);
  } catch {
    return { kind: 'bad-response', status: outcome.status, message: `${what}: the answer is not JSON` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown';
    return { kind: 'bad-response', status: outcome.status, message: `${what}: unexpected shape at ${where}` };
  }
  return ok(parsed.data);
}

async function getVersion(c: ClientParts, call: CallOptions = {}): Promise<RayResult<VersionInfo>> {
  if (c.cachedVersion) return ok(c.cachedVersion);
  const result = toResult(await c.transport.send('GET', '/api/version', call), VersionInfoSchema, 'GET /api/version');
  if (result.kind === 'ok') c.cachedVersion = result.value;
  return result;
}

async function submit(c: ClientParts, request: SubmitRequest, call: CallOptions = {}): Promise<RayResult<SubmitAccepted>> {
  const checked = SubmitRequestSchema.safeParse(request);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      kind: 'invalid-input',
      message: `submit request field ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const version = await getVersion(c, call);
  if (version.kind === 'not-found') {
    // Not a "job not found": the server has no /api/version (not a Ray dashboard, or Ray < 1.9).
    return { kind: 'rejected', status: 404, message: `GET /api/version answered 404: is ${c.baseUrl} a Ray dashboard?` };
  }
  if (version.kind !== 'ok') return version;
  const { body, dropped } = gateSubmitBody({ ...checked.data }, version.value.ray_version);
  const result = toResult(await c.transport.send('POST', '/api/jobs/', { ...call, json: body }), SubmitResponseSchema, 'POST /api/jobs/');
  if (result.kind !== 'ok') return result;
  const submissionId = result.value.submission_id ?? result.value.job_id;
  if (!submissionId) return { kind: 'bad-response', status: 200, message: 'POST /api/jobs/: no submission_id in the answer' };
  return ok({ submissionId, droppedFields: dropped });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
