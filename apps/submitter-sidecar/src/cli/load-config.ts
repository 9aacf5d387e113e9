// argv + environment (+ the files they name) -> a checked SubmitterConfig, or a usage error naming the flag.
// Nothing here talks to the network: a bad input exits 2 before any request is sent.
import { DEFAULT_TERMINATION_LOG, parseAttachOnlyEnv, shellJoin, SubmitterEnv } from '@rayjob/core';
import { parseRayAddress, validateRayClientOptions, type SubmitRequest, type TlsOptions } from '@rayjob/ray-client';
import { chooseAddress } from './address-precedence.ts';
import { describeIssue, MergedInputSchema, type MergedInput } from './config-schema.ts';
import { parseCommandLine } from './parse-args.ts';

// process.getBuiltinModule, not ES imports: an ES import of node:fs builds its namespace, whose ReadStream getter
// loads node's fs streams (~9 ms of every submitter's cold start, issue #27); node:net's likewise for one function.
const { accessSync, constants, readFileSync } = process.getBuiltinModule('node:fs');
const { isIP } = process.getBuiltinModule('node:net');

export interface SubmitterConfig {
  baseUrl: string;
  addressSource: string;
  /** Undefined: none was given; the run makes one up (so its own retries attach instead of submitting twice). */
  submissionId: string | undefined;
  /** The submit body, without submission_id. */
  request: Omit<SubmitRequest, 'submission_id'>;
  noWait: boolean;
  /** Never submit: follow a job Ray already knows, or exit 6 (AttachTargetMissing) if it does not (addition H). */
  attachOnly: boolean;
  /**
   * The head this attempt's first submitter started on (--expected-head-ip, else RAYJOB_SUBMITTER_EXPECTED_HEAD_IP):
   * before submitting, a head at another IP ends the run with exit 6 instead (addition H). Undefined: no check.
   */
  expectedHeadIp: string | undefined;
  token: string | undefined;
  headers: Record<string, string>;
  tls: TlsOptions;
  maxUnreachableMs: number;
  /** Undefined: wait for GCS forever, as KubeRay's script does. */
  healthTimeoutMs: number | undefined;
  driverLostAfterMs: number;
  logFormat: 'text' | 'json';
  /**
   * Where the termination message goes: --termination-log (required: a failed write is reported), else
   * /dev/termination-log only inside a pod (KUBERNETES_SERVICE_HOST set) where it is writable (skipped quietly
   * otherwise). Outside a pod the host's /dev/termination-log is never touched.
   */
  terminationLog: { path: string; required: boolean } | undefined;
  /** Every secret value, for redaction of everything the submitter prints or writes. */
  secrets: string[];
}

export type LoadedConfig =
  | { kind: 'config'; config: SubmitterConfig }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string; secrets: string[] };

export interface ConfigSources {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  readText?: (path: string) => string;
  /**
   * The YAML parser for a --runtime-env file (yaml's `parse`). Passed in, not imported: the run path loads the
   * yaml package (~2.5 MiB of RSS) only when --runtime-env is given (issue #27); see `needsYaml`.
   */
  parseYaml?: (text: string) => unknown;
  /** Whether the default termination log path exists and is writable. */
  writable?: (path: string) => boolean;
}

export const defaultTerminationLog = DEFAULT_TERMINATION_LOG;

const fail = (message: string, secrets: string[] = []): LoadedConfig => ({ kind: 'usage-error', message, secrets });

export function loadConfig(sources: ConfigSources): LoadedConfig {
  const readText = sources.readText ?? ((path: string) => readFileSync(path, 'utf8'));
  const env = sources.env;
  // Collected before anything can fail, so even a usage error is redacted.
  const rawSecrets = [env[SubmitterEnv.authToken], env[SubmitterEnv.headers]].filter((s): s is string => !!s);

  const line = parseCommandLine(sources.argv);
  if (!line.ok) return fail(line.message, rawSecrets);
  if (line.flags.help) return { kind: 'help' };
  if (line.flags.version) return { kind: 'version' };
  if (typeof line.flags.headers === 'string') rawSecrets.push(line.flags.headers);

  const merged = MergedInputSchema.safeParse({
    ...line.flags,
    entrypoint: line.positionals,
    ...Object.fromEntries(MERGED_ENV.map((name) => [name, env[name]])),
  });
  if (!merged.success) {
    const { name, message } = describeIssue(merged.error);
    return fail(`${name}: ${message}`, rawSecrets);
  }
  const input = merged.data;
  const job = whichJob(input, env);
  if (typeof job === 'string') return fail(job, rawSecrets);
  const token = readToken(input, readText);
  if (typeof token === 'object') return fail(token.problem, rawSecrets);
  // `--headers` wins over RAY_JOB_HEADERS, as the click option's envvar fallback does.
  const headers = input.headers ?? input.RAY_JOB_HEADERS ?? {};
  const secrets = [...rawSecrets, ...(token ? [token] : []), ...Object.values(headers)];
  const tls = readVerify(input.verify, readText);
  if (typeof tls === 'string') return fail(tls, secrets);
  const clientProblems = validateRayClientOptions({ address: job.baseUrl, token, headers, tls });
  if (clientProblems.length > 0) {
    const first = clientProblems[0] ?? '';
    const name = first.startsWith('headers') ? (input.headers ? '--headers' : 'RAY_JOB_HEADERS') : first.startsWith('token') ? 'RAY_AUTH_TOKEN' : '--address';
    return fail(`${name}: ${first}`, secrets);
  }
  const request = submitRequest(input, readText, sources.parseYaml);
  if (typeof request === 'string') return fail(request, secrets);
  return {
    kind: 'config',
    config: {
      ...job,
      request,
      noWait: input['no-wait'],
      token,
      headers,
      tls,
      maxUnreachableMs: input['max-unreachable'],
      healthTimeoutMs: input['health-timeout'],
      driverLostAfterMs: input['driver-lost-after'],
      logFormat: input['log-format'],
      terminationLog: terminationLogOf(input['termination-log'], env, sources.writable ?? isWritableFile),
      secrets,
    },
  };
}

/** The environment variables read alongside the flags (each paired with a flag or standing alone). */
const MERGED_ENV = [SubmitterEnv.submissionId, SubmitterEnv.headers, SubmitterEnv.authToken, SubmitterEnv.authTokenPath, SubmitterEnv.attachOnly, SubmitterEnv.expectedHeadIp] as const;

/** Which dashboard and which job: the address, the submission ID, attach-only and the expected head IP, or the problem. */
function whichJob(input: MergedInput, env: ConfigSources['env']): Pick<SubmitterConfig, 'baseUrl' | 'addressSource' | 'submissionId' | 'attachOnly' | 'expectedHeadIp'> | string {
  const attachOnlyEnv = parseAttachOnlyEnv(input.RAYJOB_SUBMITTER_ATTACH_ONLY);
  if (!attachOnlyEnv.ok) return attachOnlyEnv.error;
  const chosen = chooseAddress({ flag: input.address, env });
  if (!chosen) return '--address: no dashboard address: pass --address http://<head>:8265 or set RAY_DASHBOARD_ADDRESS';
  const address = parseRayAddress(chosen.address);
  if (!address.ok) return `${chosen.source}: ${address.error}`;
  const flagId = input['submission-id'];
  const envId = input.RAY_JOB_SUBMISSION_ID;
  if (flagId !== undefined && envId !== undefined && flagId !== envId) {
    return `--submission-id: "${flagId}" contradicts RAY_JOB_SUBMISSION_ID "${envId}"; pass one of them, or the same value`;
  }
  // Attach-only never submits: without a submission ID there is nothing it could follow, and the run would only
  // end in exit 6 after waiting for the dashboard.
  const attachOnly = input['attach-only'] || attachOnlyEnv.attachOnly;
  if (attachOnly && (flagId ?? envId) === undefined) {
    const source = input['attach-only'] ? '--attach-only' : SubmitterEnv.attachOnly;
    return `${source}: needs the submission ID of the job to follow: pass --submission-id ID (or set ${SubmitterEnv.submissionId}), or drop ${source} to submit`;
  }
  // The flag wins over the environment, as for the other pairs.
  const expectedHeadIp = input['expected-head-ip'] ?? input.RAYJOB_SUBMITTER_EXPECTED_HEAD_IP?.trim();
  if (expectedHeadIp !== undefined && isIP(expectedHeadIp) === 0) {
    const source = input['expected-head-ip'] !== undefined ? '--expected-head-ip' : SubmitterEnv.expectedHeadIp;
    return `${source}: "${expectedHeadIp}" is not an IP address: pass the head pod's IP (status.podIP, e.g. 10.244.0.12), or leave it out to skip the check`;
  }
  return { baseUrl: address.baseUrl, addressSource: chosen.source, submissionId: flagId ?? envId, attachOnly, expectedHeadIp };
}

/** RAY_AUTH_TOKEN, else the file RAY_AUTH_TOKEN_PATH names (it must be readable and not empty). */
function readToken(input: MergedInput, readText: (path: string) => string): string | undefined | { problem: string } {
  if (input.RAY_AUTH_TOKEN !== undefined || input.RAY_AUTH_TOKEN_PATH === undefined) return input.RAY_AUTH_TOKEN;
  let token: string;
  try {
    token = readText(input.RAY_AUTH_TOKEN_PATH).trim();
  } catch {
    return { problem: `RAY_AUTH_TOKEN_PATH: cannot read ${input.RAY_AUTH_TOKEN_PATH}` };
  }
  return token === '' ? { problem: `RAY_AUTH_TOKEN_PATH: ${input.RAY_AUTH_TOKEN_PATH} is empty` } : token;
}

/** The Jobs API submit request the flags describe, or the problem. */
function submitRequest(input: MergedInput, readText: (path: string) => string, parseYaml: ConfigSources['parseYaml']): SubmitterConfig['request'] | string {
  const runtimeEnv = readRuntimeEnv(input, readText, parseYaml);
  if (typeof runtimeEnv === 'string') return runtimeEnv;
  const entrypoint = input.entrypoint.length === 1 ? (input.entrypoint[0] as string) : shellJoin(input.entrypoint);
  if (entrypoint.trim() === '') return 'entrypoint: is empty: put the command after --';
  return {
    entrypoint,
    ...(runtimeEnv !== undefined ? { runtime_env: runtimeEnv } : {}),
    ...(input['metadata-json'] !== undefined ? { metadata: input['metadata-json'] } : {}),
    ...(input['entrypoint-num-cpus'] !== undefined ? { entrypoint_num_cpus: input['entrypoint-num-cpus'] } : {}),
    ...(input['entrypoint-num-gpus'] !== undefined ? { entrypoint_num_gpus: input['entrypoint-num-gpus'] } : {}),
    ...(input['entrypoint-memory'] !== undefined ? { entrypoint_memory: input['entrypoint-memory'] } : {}),
    ...(input['entrypoint-resources'] !== undefined ? { entrypoint_resources: input['entrypoint-resources'] } : {}),
  };
}

/** --termination-log (required), else the pod's default path when running in a pod and it is writable. */
function terminationLogOf(explicitLog: string | undefined, env: ConfigSources['env'], writable: (path: string) => boolean): SubmitterConfig['terminationLog'] {
  if (explicitLog) return { path: explicitLog, required: true };
  const inPod = (env[SubmitterEnv.kubernetesServiceHost] ?? '') !== '';
  return inPod && writable(defaultTerminationLog) ? { path: defaultTerminationLog, required: false } : undefined;
}

function readVerify(verify: string | undefined, readText: (path: string) => string): TlsOptions | string {
  if (verify === undefined || verify.toLowerCase() === 'true') return { verify: true };
  if (verify.toLowerCase() === 'false') return { verify: false };
  try {
    return { verify: true, ca: readText(verify) };
  } catch {
    return `--verify: "${verify}" is neither true, false nor a readable CA bundle file`;
  }
}

type RuntimeEnvInput = {
  'runtime-env'?: string | undefined;
  'runtime-env-json'?: Record<string, unknown> | undefined;
  'working-dir'?: string | undefined;
};

/** Whether this command line names a runtime-env YAML file, so loadConfig needs `parseYaml`. */
export function needsYaml(argv: readonly string[]): boolean {
  const line = parseCommandLine(argv);
  return line.ok && line.flags['runtime-env'] !== undefined;
}

function readRuntimeEnv(
  input: RuntimeEnvInput,
  readText: (path: string) => string,
  parseYaml: ((text: string) => unknown) | undefined,
): Record<string, unknown> | undefined | string {
  if (input['runtime-env'] !== undefined && input['runtime-env-json'] !== undefined) {
    return '--runtime-env: give either --runtime-env (a YAML file) or --runtime-env-json, not both';
  }
  let runtimeEnv = input['runtime-env-json'];
  const file = input['runtime-env'];
  if (file !== undefined) {
    let text: string;
    try {
      text = readText(file);
    } catch {
      return `--runtime-env: cannot read the file ${file}`;
    }
    if (parseYaml === undefined) throw new Error('loadConfig: --runtime-env needs sources.parseYaml');
    let parsed: unknown;
    try {
      parsed = parseYaml(text);
    } catch (error) {
      return `--runtime-env: ${file} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
    if (parsed === null || parsed === undefined) parsed = {};
    if (typeof parsed !== 'object' || Array.isArray(parsed)) return `--runtime-env: ${file} must hold a YAML mapping`;
    runtimeEnv = parsed as Record<string, unknown>;
  }
  const workingDir = input['working-dir'];
  if (workingDir !== undefined) {
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(workingDir)) {
      return (
        `--working-dir: "${workingDir}" is a local path; this submitter does not upload directories. ` +
        'Package it and pass a remote URI (s3://, gs://, https://.../dir.zip), or bake it into the image'
      );
    }
    runtimeEnv = { ...(runtimeEnv ?? {}), working_dir: workingDir };
  }
  return runtimeEnv;
}

function isWritableFile(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
