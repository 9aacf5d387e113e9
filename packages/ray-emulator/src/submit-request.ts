// Parses a submit body the way JobHead does (ray-jobs-api.md §2 "Request parsing", §3.2): null-valued keys are
// dropped, unknown keys (for the emulated Ray version) are a 400, then JobSubmitRequest's type checks run.
import { aiohttp500, submitRequestTypeError } from './ray-texts.ts';
import { compareVersions } from './version.ts';

export interface SubmitRequest {
  entrypoint: string;
  submissionId: string | undefined;
  runtimeEnv: Record<string, unknown> | null;
  metadata: Record<string, string> | null;
  numCpus: number;
  numGpus: number;
  memory: number;
  resources: Record<string, number>;
}

export type ParsedSubmit = { ok: true; request: SubmitRequest } | { ok: false; status: number; body: string };

const baseFields = ['entrypoint', 'submission_id', 'job_id', 'runtime_env', 'metadata'];
const versionedFields: ReadonlyArray<[field: string, since: string]> = [
  ['entrypoint_num_cpus', '2.2.0'],
  ['entrypoint_num_gpus', '2.2.0'],
  ['entrypoint_resources', '2.2.0'],
  ['entrypoint_memory', '2.8.0'],
  ['entrypoint_label_selector', '2.54.0'],
];

export function knownSubmitFields(rayVersion: string): string[] {
  return [...baseFields, ...versionedFields.filter(([, since]) => compareVersions(rayVersion, since) >= 0).map(([f]) => f)];
}

/** Python's type(x) for a JSON value. bool is a subclass of int in Python, which the checks below honour. */
function pyType(value: unknown): string {
  if (typeof value === 'string') return "<class 'str'>";
  if (typeof value === 'boolean') return "<class 'bool'>";
  if (typeof value === 'number') return Number.isInteger(value) ? "<class 'int'>" : "<class 'float'>";
  if (Array.isArray(value)) return "<class 'list'>";
  return "<class 'dict'>";
}

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPyNumber = (v: unknown) => typeof v === 'number' || typeof v === 'boolean';
const isPyInt = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean';
const num = (v: unknown) => (typeof v === 'boolean' ? Number(v) : (v as number));

function typeCheck(b: Record<string, unknown>): string | undefined {
  if (typeof b.entrypoint !== 'string') return `entrypoint must be a string, got ${pyType(b.entrypoint)}`;
  if (b.submission_id !== undefined && typeof b.submission_id !== 'string') {
    return `submission_id must be a string if provided, got ${pyType(b.submission_id)}`;
  }
  if (b.job_id !== undefined && typeof b.job_id !== 'string') return `job_id must be a string if provided, got ${pyType(b.job_id)}`;
  if (b.runtime_env !== undefined && !isDict(b.runtime_env)) return `runtime_env must be a dict, got ${pyType(b.runtime_env)}`;
  if (b.metadata !== undefined) {
    if (!isDict(b.metadata)) return `metadata must be a dict, got ${pyType(b.metadata)}`;
    for (const v of Object.values(b.metadata)) if (typeof v !== 'string') return `metadata values must be strings, got ${pyType(v)}`;
  }
  if (b.entrypoint_num_cpus !== undefined && !isPyNumber(b.entrypoint_num_cpus)) {
    return `entrypoint_num_cpus must be a number, got ${pyType(b.entrypoint_num_cpus)}`;
  }
  if (b.entrypoint_num_gpus !== undefined && !isPyNumber(b.entrypoint_num_gpus)) {
    return `entrypoint_num_gpus must be a number, got ${pyType(b.entrypoint_num_gpus)}`;
  }
  if (b.entrypoint_memory !== undefined && !isPyInt(b.entrypoint_memory)) {
    return `entrypoint_memory must be an integer, got ${pyType(b.entrypoint_memory)}`;
  }
  if (b.entrypoint_resources !== undefined) {
    if (!isDict(b.entrypoint_resources)) return `entrypoint_resources must be a dict, got ${pyType(b.entrypoint_resources)}`;
    for (const v of Object.values(b.entrypoint_resources)) {
      if (!isPyNumber(v)) return `entrypoint_resources values must be numbers, got ${pyType(v)}`;
    }
  }
  return undefined;
}

export function parseSubmitBody(raw: string, rayVersion: string): ParsedSubmit {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, status: 500, body: aiohttp500 };
  }
  if (!isDict(json)) return { ok: false, status: 500, body: aiohttp500 };
  const body = Object.fromEntries(Object.entries(json).filter(([, v]) => v !== null));
  const known = knownSubmitFields(rayVersion);
  const unknown = Object.keys(body).find((k) => !known.includes(k));
  if (unknown !== undefined) {
    return { ok: false, status: 400, body: submitRequestTypeError(`JobSubmitRequest.__init__() got an unexpected keyword argument '${unknown}'`) };
  }
  if (!('entrypoint' in body)) {
    return { ok: false, status: 400, body: submitRequestTypeError("JobSubmitRequest.__init__() missing 1 required positional argument: 'entrypoint'") };
  }
  const problem = typeCheck(body);
  if (problem) return { ok: false, status: 400, body: submitRequestTypeError(problem) };

  // `submission_id` wins; the deprecated `job_id` is used only when it is missing or empty; "" means "generate".
  const sid = (body.submission_id as string | undefined) || (body.job_id as string | undefined) || undefined;
  return {
    ok: true,
    request: {
      entrypoint: body.entrypoint as string,
      submissionId: sid,
      runtimeEnv: (body.runtime_env as Record<string, unknown> | undefined) ?? null,
      metadata: (body.metadata as Record<string, string> | undefined) ?? null,
      numCpus: body.entrypoint_num_cpus === undefined ? 0 : num(body.entrypoint_num_cpus),
      numGpus: body.entrypoint_num_gpus === undefined ? 0 : num(body.entrypoint_num_gpus),
      memory: body.entrypoint_memory === undefined ? 0 : num(body.entrypoint_memory),
      resources: Object.fromEntries(
        Object.entries((body.entrypoint_resources as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, num(v)]),
      ),
    },
  };
}
