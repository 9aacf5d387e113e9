/**
 * The submitter's command-line contract: every flag and environment variable that core's builders emit and
 * `ray-job-submitter` parses, defined once. The builders write their containers from these names and the
 * submitter's parser reads from them, so a renamed flag breaks both sides at compile time instead of in a pod.
 * Pure data (no zod, no imports): the submitter loads this on its `--help` path, where every module costs start time.
 */

/**
 * Every flag the submitter accepts, with its value type for `node:util` parseArgs. The first group is
 * `ray job submit`'s (same names, same meaning); the second is the submitter's own.
 */
export const submitterFlags = {
  // `ray job submit`
  address: 'string',
  'submission-id': 'string',
  'no-wait': 'boolean',
  'runtime-env': 'string',
  'runtime-env-json': 'string',
  'metadata-json': 'string',
  'entrypoint-num-cpus': 'string',
  'entrypoint-num-gpus': 'string',
  'entrypoint-memory': 'string',
  'entrypoint-resources': 'string',
  headers: 'string',
  verify: 'string',
  'working-dir': 'string',
  help: 'boolean',
  version: 'boolean',
  // ours
  'attach-only': 'boolean',
  'expected-head-ip': 'string',
  'max-unreachable': 'string',
  'health-timeout': 'string',
  'driver-lost-after': 'string',
  'log-format': 'string',
  'termination-log': 'string',
} as const satisfies Record<string, 'string' | 'boolean'>;

export type SubmitterFlagName = keyof typeof submitterFlags;

/** `--name` as typed on a command line. */
export function submitterFlag(name: SubmitterFlagName): `--${SubmitterFlagName}` {
  return `--${name}`;
}

/** Everything after this argument is the entrypoint (one argument: verbatim; several: shell-quoted and joined). */
export const ENTRYPOINT_SEPARATOR = '--';

/** Environment variables the submitter reads (and, where marked, the builders set). */
export const SubmitterEnv = {
  /** Dashboard address; set by the builders. The fallback after RAY_API_SERVER_ADDRESS and RAY_ADDRESS. */
  dashboardAddress: 'RAY_DASHBOARD_ADDRESS',
  /** Wins over RAY_ADDRESS and --address (as `ray job submit`). */
  apiServerAddress: 'RAY_API_SERVER_ADDRESS',
  /** Wins over --address (as `ray job submit`). */
  rayAddress: 'RAY_ADDRESS',
  /** Submission ID; set by the builders. Same meaning as --submission-id (both given and different: usage error). */
  submissionId: 'RAY_JOB_SUBMISSION_ID',
  /** Extra HTTP headers as a JSON object of strings (--headers wins). */
  headers: 'RAY_JOB_HEADERS',
  /** Token for a token-auth cluster; set by the builders from the cluster's Secret. */
  authToken: 'RAY_AUTH_TOKEN',
  /** A file holding the token, read when RAY_AUTH_TOKEN is unset. */
  authTokenPath: 'RAY_AUTH_TOKEN_PATH',
  /** Set by the builders next to RAY_AUTH_TOKEN for Ray's own CLI; the submitter does not need it. */
  authMode: 'RAY_AUTH_MODE',
  /** Attach-only mode (same as --attach-only); set by the builders, see ATTACH_ONLY_ENV_VALUE. */
  attachOnly: 'RAYJOB_SUBMITTER_ATTACH_ONLY',
  /**
   * The IP of the head this attempt's first submitter started on (same as --expected-head-ip); set by the builders
   * from the submitter-state ConfigMap. Before submitting, the submitter refuses a head at another IP (exit 6).
   */
  expectedHeadIp: 'RAYJOB_SUBMITTER_EXPECTED_HEAD_IP',
  /** Set in every pod by the kubelet: the submitter writes /dev/termination-log by default only when it is set. */
  kubernetesServiceHost: 'KUBERNETES_SERVICE_HOST',
  /** Set by the builders so a Python entrypoint run by Ray's CLI (KubeRay's script) prints at once. */
  pythonUnbuffered: 'PYTHONUNBUFFERED',
} as const;

export type SubmitterEnvName = (typeof SubmitterEnv)[keyof typeof SubmitterEnv];

/** The value the builders write to RAYJOB_SUBMITTER_ATTACH_ONLY to turn attach-only on. */
export const ATTACH_ONLY_ENV_VALUE = 'true';

/**
 * How the submitter reads RAYJOB_SUBMITTER_ATTACH_ONLY: `true`/`1` on, `false`/`0`/unset/empty off (case-insensitive),
 * anything else is a usage error naming the variable (a typo must not silently allow a second submission).
 */
export function parseAttachOnlyEnv(value: string | undefined): { ok: true; attachOnly: boolean } | { ok: false; error: string } {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return { ok: true, attachOnly: false };
  if (v === 'true' || v === '1') return { ok: true, attachOnly: true };
  return { ok: false, error: `${SubmitterEnv.attachOnly}: "${value}" is neither true nor false` };
}

/**
 * Keys of the per-RayJob submitter-state ConfigMap, one per attempt: `<kind>.<cluster>.<submission ID>` (the
 * builders sanitise the text into a valid ConfigMap key). `attach-only` holds ATTACH_ONLY_ENV_VALUE once the job
 * was seen; `head-ip` holds the head's IP when the attempt's first submitter Job was created, never overwritten.
 */
export const SubmitterStateKeyKind = {
  attachOnly: 'attach-only',
  expectedHeadIp: 'head-ip',
} as const;

export type SubmitterStateKeyKindName = keyof typeof SubmitterStateKeyKind;

/** The unsanitised key text: `<kind>.<cluster>.<submission ID>`. */
export function submitterStateKeyText(kind: SubmitterStateKeyKindName, clusterName: string, jobId: string): string {
  return `${SubmitterStateKeyKind[kind]}.${clusterName}.${jobId}`;
}

/** The default path of the container's termination message (the kubelet mounts it into every container). */
export const DEFAULT_TERMINATION_LOG = '/dev/termination-log';
