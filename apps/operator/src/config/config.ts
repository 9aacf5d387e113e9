import { checkManagedByFlag, DEFAULT_MANAGED_BY, DEFAULT_SUBMITTER_IMAGE, RAYJOB_OPERATOR_MANAGED_BY, settingsFromEnv, type DecisionSettings } from '@rayjob/core';
import { z } from 'zod';
import { parseFeatureGates } from './feature-gates.ts';
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
});

export type OperatorConfig = z.infer<typeof OperatorConfigSchema> & { settings: DecisionSettings };

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
  'feature-gates': { kind: 'string', help: 'Comma-separated Gate=true|false (RayJobDeletionPolicy, SidecarSubmitterRestart, ...).' },
  'forced-cluster-upgrade': { kind: 'bool', help: '(Deprecated) no effect.' },
  'enable-batch-scheduler': { kind: 'bool', help: '(Deprecated) batch schedulers are not supported by this operator.' },
  'batch-scheduler': { kind: 'string', help: 'Not supported by this operator (must be empty).' },
  config: { kind: 'string', help: 'Not supported: use flags.' },
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

/** Flags and environment -> the operator's configuration, or a message naming the bad flag and the fix. */
export function loadConfig(argv: readonly string[], env: Record<string, string | undefined>): ConfigResult {
  const parsed = parseGoFlags(argv, FLAGS);
  if (!parsed.ok) return parsed;
  if (parsed.rest.length > 0) return { ok: false, message: `unexpected argument ${JSON.stringify(parsed.rest[0])}: every setting is a --flag` };
  const v = parsed.values;
  if (v.has('help')) return { ok: 'help' };

  const bool = (name: string, fallback: boolean): boolean | string => {
    const raw = v.get(name);
    if (raw === undefined) return fallback;
    return parseGoBool(raw) ?? `--${name}: invalid boolean value ${JSON.stringify(raw)} (use true or false)`;
  };
  const num = (name: string, fallback: number): number | string => {
    const raw = v.get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return raw.trim() !== '' && Number.isFinite(n) ? n : `--${name}: ${JSON.stringify(raw)} is not a number`;
  };
  const problems: string[] = [];
  const take = <T>(x: T | string): T => {
    if (typeof x === 'string') problems.push(x);
    return x as T;
  };

  if (v.get('config')) problems.push('--config: the structured config file is not supported; pass the same settings as flags');
  if (v.get('batch-scheduler') || bool('enable-batch-scheduler', false) === true) {
    problems.push('--batch-scheduler / --enable-batch-scheduler: batch schedulers are not supported by this operator; remove the flag (or use Kueue, which needs none)');
  }
  const gates = parseFeatureGates(v.get('feature-gates') ?? '');
  if (!gates.ok) problems.push(gates.message);
  const managedBy = checkManagedByFlag(v.get('managed-by') ?? DEFAULT_MANAGED_BY);
  if (!managedBy.ok) problems.push(managedBy.message);
  const managedByValue = managedBy.ok ? managedBy.value : DEFAULT_MANAGED_BY;

  const raw = {
    metricsAddr: v.get('metrics-addr') ?? ':8080',
    probeAddr: v.get('health-probe-bind-address') ?? ':8082',
    enableLeaderElection: take<boolean>(bool('enable-leader-election', true)),
    leaderElectionNamespace: v.get('leader-election-namespace') ?? '',
    leaderElectionId: v.get('leader-election-id') ?? (managedByValue === RAYJOB_OPERATOR_MANAGED_BY ? SIDE_BY_SIDE_LEADER_ELECTION_ID : KUBERAY_LEADER_ELECTION_ID),
    reconcileConcurrency: take<number>(num('reconcile-concurrency', 1)),
    watchNamespaces: (v.get('watch-namespace') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
    useKubernetesProxy: take<boolean>(bool('use-kubernetes-proxy', false)),
    enableMetrics: take<boolean>(bool('enable-metrics', false)),
    qps: take<number>(num('qps', 100)),
    burst: take<number>(num('burst', 200)),
    logStdoutEncoder: v.get('log-stdout-encoder') ?? 'json',
    logFilePath: v.get('log-file-path') ?? '',
    logFileEncoder: v.get('log-file-encoder') ?? 'json',
    logLevel: v.get('zap-log-level') ?? 'info',
    kubeconfig: v.get('kubeconfig') ?? env.KUBECONFIG ?? '',
    submitterImage: v.get('submitter-image') ?? DEFAULT_SUBMITTER_IMAGE,
    managedBy: managedByValue,
    enableRayClusterController: take<boolean>(bool('enable-raycluster-controller', true)),
    gatesWithoutEffect: gates.ok ? gates.value.withoutEffect : [],
  };
  take(bool('forced-cluster-upgrade', false));
  if (problems.length > 0) return { ok: false, message: problems.join('\n') };
  const checked = OperatorConfigSchema.safeParse(raw);
  if (!checked.success) {
    const flagOf: Record<string, string> = {
      metricsAddr: 'metrics-addr', probeAddr: 'health-probe-bind-address', leaderElectionId: 'leader-election-id',
      reconcileConcurrency: 'reconcile-concurrency', qps: 'qps', burst: 'burst', logStdoutEncoder: 'log-stdout-encoder',
      logFileEncoder: 'log-file-encoder', logLevel: 'zap-log-level', submitterImage: 'submitter-image',
    };
    return {
      ok: false,
      message: checked.error.issues.map((i) => `--${flagOf[String(i.path[0])] ?? String(i.path[0])}: ${i.message} (got ${JSON.stringify(raw[i.path[0] as keyof typeof raw])})`).join('\n'),
    };
  }
  const settings: DecisionSettings = {
    ...settingsFromEnv(env),
    submitterImage: checked.data.submitterImage,
    managedBy: checked.data.managedBy,
    featureGates: gates.ok ? gates.value.gates : settingsFromEnv(env).featureGates,
  };
  return { ok: true, config: { ...checked.data, settings } };
}
