import { readFileSync } from 'node:fs';
import { checkManagedByFlag, DEFAULT_MANAGED_BY, DEFAULT_SUBMITTER_IMAGE, RAYJOB_OPERATOR_MANAGED_BY, rayClusterSettingsFromEnv, settingsFromEnv, type DecisionSettings, type RayClusterSettings } from '@rayjob/core';
import { z } from 'zod';
import { parseConfigFile, type KubeRayConfiguration } from './config-file.ts';
import { decisionGates, KNOWN_GATES, parseFeatureGates, rayClusterGates, type GateValues } from './feature-gates.ts';
import { parseGoBool, parseGoFlags, type FlagSpec } from './go-flags.ts';

/** KubeRay's lease name; `--managed-by rayjob.io/operator` uses its own so both operators can run side by side. */
export const KUBERAY_LEADER_ELECTION_ID = 'ray-operator-leader';
export const SIDE_BY_SIDE_LEADER_ELECTION_ID = 'rayjob-operator-leader';

const ListenAddress = z.string().regex(/^(\S*:\d{1,5}|0)$/, 'must be host:port, :port, or 0 to disable');

export const OperatorConfigSchema = z.object({
  metricsAddr: ListenAddress,
  probeAddr: ListenAddress,
  enableLeaderElection: z.boolean(),
  leaderElectionNamespace: z.string(),
  leaderElectionId: z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a DNS subdomain name (the Lease name)'),
  reconcileConcurrency: z.number().int().min(1),
  /** Empty = every namespace (KubeRay's `--watch-namespace`, comma-separated). */
  watchNamespaces: z.array(z.string().min(1)),
  useKubernetesProxy: z.boolean(),
  enableMetrics: z.boolean(),
  qps: z.number().positive(),
  burst: z.number().int().positive(),
  logStdoutEncoder: z.enum(['json', 'console']),
  logFilePath: z.string(),
  logFileEncoder: z.enum(['json', 'console']),
  logLevel: z.enum(['debug', 'info', 'error']),
  kubeconfig: z.string(),
  submitterImage: z.string().min(1),
  managedBy: z.string(),
  /** Run the RayCluster controller (turn off when KubeRay's runs beside this operator). */
  enableRayClusterController: z.boolean(),
  /** Feature gates set on the command line that do nothing here (reported at start). */
  gatesWithoutEffect: z.array(z.string()),
  /** KubeRay's `--batch-scheduler` (volcano for the deprecated `--enable-batch-scheduler`); '' = none. Not acted on. */
  batchScheduler: z.string(),
});

/** What KubeRay's configuration file adds to the Ray Pods it builds (empty without `--config`). */
export interface PodDefaults {
  headSidecarContainers: NonNullable<KubeRayConfiguration['headSidecarContainers']>;
  workerSidecarContainers: NonNullable<KubeRayConfiguration['workerSidecarContainers']>;
  defaultContainerEnvs: NonNullable<KubeRayConfiguration['defaultContainerEnvs']>;
  defaultPodAnnotations: Record<string, string>;
  defaultPodLabels: Record<string, string>;
}

export type OperatorConfig = z.infer<typeof OperatorConfigSchema> & {
  settings: DecisionSettings;
  /** Every KubeRay feature gate's value. */
  featureGates: GateValues;
  podDefaults: PodDefaults;
  /** The RayCluster controller's settings (KubeRay's environment variables, gates and pod defaults). */
  rayCluster: RayClusterConfig;
  /** Start-up notes: flags ignored because --config was given, unknown fields of the file. */
  notices: string[];
};

export interface RayClusterConfig {
  settings: RayClusterSettings;
  /** RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV: seconds between passes of a settled cluster; unset or invalid -> 300. */
  idleRequeueSeconds: number;
}

export function parseIdleRequeueSeconds(value: string | undefined): number {
  const n = value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 300;
}

/** KubeRay's batch scheduler plugin names (`--batch-scheduler`). */
export const BATCH_SCHEDULERS = ['volcano', 'yunikorn', 'scheduler-plugins', 'kai-scheduler'] as const;
/** Flags KubeRay takes from the configuration file instead when `--config` is given. */
const FILE_FLAGS = [
  'metrics-addr', 'health-probe-bind-address', 'enable-leader-election', 'leader-election-namespace', 'reconcile-concurrency', 'watch-namespace',
  'log-file-path', 'log-file-encoder', 'log-stdout-encoder', 'enable-batch-scheduler', 'batch-scheduler', 'use-kubernetes-proxy', 'enable-metrics', 'qps', 'burst',
];

const FLAGS: Record<string, FlagSpec & { help: string }> = {
  'metrics-addr': { kind: 'string', help: 'The address the metric endpoint binds to (default :8080).' },
  'health-probe-bind-address': { kind: 'string', help: 'The address the probe endpoint binds to (default :8082).' },
  'enable-leader-election': { kind: 'bool', help: 'Enable leader election (default true): only one replica reconciles.' },
  'leader-election-namespace': { kind: 'string', help: 'Namespace of the Lease (default: the pod namespace).' },
  'leader-election-id': { kind: 'string', help: `Lease name (default ${KUBERAY_LEADER_ELECTION_ID}; ${SIDE_BY_SIDE_LEADER_ELECTION_ID} with --managed-by ${RAYJOB_OPERATOR_MANAGED_BY}).` },
  'reconcile-concurrency': { kind: 'string', help: 'Max concurrent reconciles per controller (default 1).' },
  'watch-namespace': { kind: 'string', help: 'Comma-separated namespaces to watch; empty = all.' },
  'use-kubernetes-proxy': { kind: 'bool', help: "Reach Ray dashboards through the API server's service proxy." },
  'enable-metrics': { kind: 'bool', help: 'Emit the kuberay_* control plane metrics.' },
  qps: { kind: 'string', help: 'QPS towards the API server (default 100).' },
  burst: { kind: 'string', help: 'Burst towards the API server (default 200).' },
  'log-stdout-encoder': { kind: 'string', help: 'json (default) or console.' },
  'log-file-path': { kind: 'string', help: 'Also write logs to this file.' },
  'log-file-encoder': { kind: 'string', help: 'json (default) or console.' },
  'zap-log-level': { kind: 'string', help: 'debug, info (default) or error.' },
  'feature-gates': { kind: 'string', help: `Comma-separated Gate=true|false; KubeRay's gates: ${Object.keys(KNOWN_GATES).join(', ')}.` },
  'forced-cluster-upgrade': { kind: 'bool', help: '(Deprecated) no effect.' },
  'enable-batch-scheduler': { kind: 'bool', help: '(Deprecated) as --batch-scheduler=volcano.' },
  'batch-scheduler': { kind: 'string', help: `${BATCH_SCHEDULERS.join(', ')}: accepted; this operator schedules no PodGroups, and each object it would apply to gets a Warning event.` },
  config: { kind: 'string', help: "KubeRay's configuration file (config.ray.io/v1alpha1 Configuration); its settings replace the flags KubeRay takes from it." },
  kubeconfig: { kind: 'string', help: 'Path to a kubeconfig (default: $KUBECONFIG, in-cluster, ~/.kube/config).' },
  'submitter-image': { kind: 'string', help: `Image of the submitter when a RayJob gives no submitter template (default ${DEFAULT_SUBMITTER_IMAGE}).` },
  'managed-by': {
    kind: 'string',
    help: `Reconcile RayJobs whose spec.managedBy is this value: ${DEFAULT_MANAGED_BY} (default; unset counts) to replace KubeRay, ${RAYJOB_OPERATOR_MANAGED_BY} to run beside it.`,
  },
  'enable-raycluster-controller': { kind: 'bool', help: "Reconcile RayClusters into Pods and Services (default true); false when KubeRay's operator runs beside this one." },
  help: { kind: 'bool', help: 'Print this help.' },
};

export function usage(): string {
  return ['usage: rayjob-operator [flags]', ...Object.entries(FLAGS).map(([name, f]) => `  --${name}${f.kind === 'string' ? ' value' : ''}\n      ${f.help}`)].join('\n');
}

export type ConfigResult = { ok: true; config: OperatorConfig } | { ok: false; message: string } | { ok: 'help' };

/** Reads the `--config` file (injected so tests need no files). */
export type ReadConfigFile = (path: string) => string;

/** Flags and environment -> the operator's configuration, or a message naming the bad flag and the fix. */
export function loadConfig(argv: readonly string[], env: Record<string, string | undefined>, readFile: ReadConfigFile = (p) => readFileSync(p, 'utf8')): ConfigResult {
  const parsed = parseGoFlags(argv, FLAGS);
  if (!parsed.ok) return parsed;
  if (parsed.rest.length > 0) return { ok: false, message: `unexpected argument ${JSON.stringify(parsed.rest[0])}: every setting is a --flag` };
  const v = parsed.values;
  if (v.has('help')) return { ok: 'help' };
  const problems: string[] = [];
  const notices: string[] = [];
  const configPath = v.get('config') ?? '';
  const file = configPath === '' ? undefined : readConfigFileFlag(configPath, v, readFile, problems, notices);
  const { raw, gateValues } = rawConfig(v, env, file, problems);
  if (problems.length > 0) return { ok: false, message: problems.join('\n') };
  const checked = OperatorConfigSchema.safeParse(raw);
  if (!checked.success) {
    const where = (key: string) => (file && !['leaderElectionId', 'logLevel', 'submitterImage'].includes(key) ? `--config ${configPath}: ${key}` : `--${flagOfField[key] ?? key}`);
    return {
      ok: false,
      message: checked.error.issues.map((i) => `${where(String(i.path[0]))}: ${i.message} (got ${JSON.stringify(raw[i.path[0] as keyof typeof raw])})`).join('\n'),
    };
  }
  return { ok: true, config: withSettings(checked.data, env, file, gateValues, notices) };
}

/** The flag that sets each checked field, for the schema's messages. */
const flagOfField: Record<string, string> = {
  metricsAddr: 'metrics-addr', probeAddr: 'health-probe-bind-address', leaderElectionId: 'leader-election-id',
  reconcileConcurrency: 'reconcile-concurrency', qps: 'qps', burst: 'burst', logStdoutEncoder: 'log-stdout-encoder',
  logFileEncoder: 'log-file-encoder', logLevel: 'zap-log-level', submitterImage: 'submitter-image',
};

/**
 * KubeRay: with --config, the file replaces the flags it covers (those flags are ignored, said once at start):
 * they are removed from `v`. Undefined when the file cannot be read or parsed (the reason is in `problems`).
 */
function readConfigFileFlag(configPath: string, v: Map<string, string>, readFile: ReadConfigFile, problems: string[], notices: string[]): KubeRayConfiguration | undefined {
  let text: string | undefined;
  try {
    text = readFile(configPath);
  } catch (e) {
    problems.push(`--config ${configPath}: cannot read: ${(e as Error).message}`);
  }
  const loaded = text === undefined ? undefined : parseConfigFile(configPath, text);
  if (loaded && !loaded.ok) problems.push(loaded.message);
  if (!loaded?.ok) return undefined;
  if (loaded.unknownFields.length > 0) notices.push(`--config ${configPath}: fields not known to this operator, ignored: ${loaded.unknownFields.join(', ')}`);
  const ignored = FILE_FLAGS.filter((f) => v.has(f));
  if (ignored.length > 0) notices.push(`--config given: flags ignored as KubeRay ignores them (set them in the file): ${ignored.map((f) => `--${f}`).join(', ')}`);
  for (const f of FILE_FLAGS) v.delete(f);
  return loaded.value;
}

/** Typed readers of the flags; a bad value is pushed to `problems` (and read as its message, never used). */
function flagReaders(v: Map<string, string>, problems: string[]) {
  const take = <T>(x: T | string): T => {
    if (typeof x === 'string') problems.push(x);
    return x as T;
  };
  return {
    bool: (name: string, fallback: boolean): boolean => {
      const raw = v.get(name);
      if (raw === undefined) return fallback;
      return take<boolean>(parseGoBool(raw) ?? `--${name}: invalid boolean value ${JSON.stringify(raw)} (use true or false)`);
    },
    num: (name: string, fallback: number): number => {
      const raw = v.get(name);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      return take<number>(raw.trim() !== '' && Number.isFinite(n) ? n : `--${name}: ${JSON.stringify(raw)} is not a number`);
    },
  };
}

/** The flags (or the file's fields) as the schema checks them, with the feature gates they name. */
function rawConfig(v: Map<string, string>, env: Record<string, string | undefined>, file: KubeRayConfiguration | undefined, problems: string[]) {
  const { bool, num } = flagReaders(v, problems);
  const gates = parseFeatureGates(v.get('feature-gates') ?? '');
  if (!gates.ok) problems.push(gates.message);
  const gateValues = gates.ok ? gates.value.values : parseFeatureGatesDefaults();
  const batch = batchSchedulerOf(file?.batchScheduler ?? v.get('batch-scheduler') ?? '', file?.enableBatchScheduler ?? bool('enable-batch-scheduler', false), gateValues.KubernetesWAS);
  if (!batch.ok) problems.push(batch.message);
  const managedBy = checkManagedByFlag(v.get('managed-by') ?? DEFAULT_MANAGED_BY);
  if (!managedBy.ok) problems.push(managedBy.message);
  const managedByValue = managedBy.ok ? managedBy.value : DEFAULT_MANAGED_BY;
  const raw = {
    metricsAddr: file?.metricsAddr || (v.get('metrics-addr') ?? ':8080'),
    probeAddr: file?.probeAddr || (v.get('health-probe-bind-address') ?? ':8082'),
    enableLeaderElection: file?.enableLeaderElection ?? bool('enable-leader-election', true),
    leaderElectionNamespace: file?.leaderElectionNamespace ?? v.get('leader-election-namespace') ?? '',
    leaderElectionId: v.get('leader-election-id') ?? (managedByValue === RAYJOB_OPERATOR_MANAGED_BY ? SIDE_BY_SIDE_LEADER_ELECTION_ID : KUBERAY_LEADER_ELECTION_ID),
    reconcileConcurrency: file?.reconcileConcurrency || num('reconcile-concurrency', 1),
    watchNamespaces: (file?.watchNamespace ?? v.get('watch-namespace') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
    useKubernetesProxy: file?.useKubernetesProxy ?? bool('use-kubernetes-proxy', false),
    enableMetrics: file?.enableMetrics ?? bool('enable-metrics', false),
    qps: file?.qps ?? num('qps', 100),
    burst: file?.burst ?? num('burst', 200),
    logStdoutEncoder: file?.logStdoutEncoder || (v.get('log-stdout-encoder') ?? 'json'),
    logFilePath: file?.logFile ?? v.get('log-file-path') ?? '',
    logFileEncoder: file?.logFileEncoder || (v.get('log-file-encoder') ?? 'json'),
    logLevel: v.get('zap-log-level') ?? 'info',
    kubeconfig: v.get('kubeconfig') ?? env.KUBECONFIG ?? '',
    submitterImage: v.get('submitter-image') ?? DEFAULT_SUBMITTER_IMAGE,
    managedBy: managedByValue,
    enableRayClusterController: bool('enable-raycluster-controller', true),
    gatesWithoutEffect: gates.ok ? gates.value.withoutEffect : [],
    batchScheduler: batch.ok ? batch.value : '',
  };
  bool('forced-cluster-upgrade', false);
  return { raw, gateValues };
}

/** The checked flags plus what the controllers decide with: KubeRay's environment, the file's Pod defaults. */
function withSettings(checked: z.infer<typeof OperatorConfigSchema>, env: Record<string, string | undefined>, file: KubeRayConfiguration | undefined, gateValues: GateValues, notices: string[]): OperatorConfig {
  const settings: DecisionSettings = {
    ...settingsFromEnv(env),
    // KubeRay reads DELETE_RAYJOB_CR_AFTER_JOB_FINISHES from the file when one is given, else from the env.
    ...(file && { deleteRayJobAfterJobFinishes: file.deleteRayJobAfterJobFinishes ?? false }),
    submitterImage: checked.submitterImage,
    managedBy: checked.managedBy,
    featureGates: decisionGates(gateValues),
  };
  const podDefaults: PodDefaults = {
    headSidecarContainers: file?.headSidecarContainers ?? [],
    workerSidecarContainers: file?.workerSidecarContainers ?? [],
    defaultContainerEnvs: file?.defaultContainerEnvs ?? [],
    defaultPodAnnotations: file?.defaultPodAnnotations ?? {},
    defaultPodLabels: file?.defaultPodLabels ?? {},
  };
  const rayCluster: RayClusterConfig = {
    settings: { ...rayClusterSettingsFromEnv(env), featureGates: rayClusterGates(gateValues), podDefaults },
    idleRequeueSeconds: parseIdleRequeueSeconds(env.RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV),
  };
  return { ...checked, settings, featureGates: gateValues, podDefaults, rayCluster, notices };
}

const parseFeatureGatesDefaults = (): GateValues => {
  const parsed = parseFeatureGates('');
  if (!parsed.ok) throw new Error('the default feature gates must parse');
  return parsed.value.values;
};

/** KubeRay's ValidateBatchSchedulerConfig: one of the two flags, a known plugin, not with KubernetesWAS. */
function batchSchedulerOf(name: string, enabled: boolean, kubernetesWAS: boolean): { ok: true; value: string } | { ok: false; message: string } {
  if (kubernetesWAS && (enabled || name !== '')) return { ok: false, message: '--feature-gates: the KubernetesWAS feature gate cannot be combined with --batch-scheduler or --enable-batch-scheduler' };
  if (enabled && name !== '') return { ok: false, message: '--batch-scheduler / --enable-batch-scheduler: both are set; use --batch-scheduler only (--enable-batch-scheduler is deprecated)' };
  if (enabled) return { ok: true, value: 'volcano' };
  if (name !== '' && !(BATCH_SCHEDULERS as readonly string[]).includes(name)) {
    return { ok: false, message: `--batch-scheduler: scheduler is not supported, name=${name} (one of ${BATCH_SCHEDULERS.join(', ')})` };
  }
  return { ok: true, value: name };
}
