import type { FeatureGates, RayClusterFeatureGates, ValidationFeatureGates } from '@rayjob/core';

/**
 * KubeRay's feature gates with KubeRay's defaults and maturity (ray-operator/pkg/features). Every gate KubeRay
 * knows is accepted, so a KubeRay deployment's `--feature-gates` (and its chart's default list) works unchanged.
 * `effect` says what the gate does here:
 * - `implemented`: changes this operator's behaviour as in KubeRay;
 * - `warns`: lets validation accept the feature, which this operator then does not build; each object that uses
 *   it gets one Warning event (see controllers/ignored-features.ts);
 * - `none`: the gate governs a kind this operator does not serve (RayService, RayCronJob) or was renamed.
 */
export const KNOWN_GATES = {
  RayClusterStatusConditions: { default: true, stage: 'Beta', effect: 'implemented' },
  RayJobDeletionPolicy: { default: true, stage: 'Beta', effect: 'implemented' },
  RayMultiHostIndexing: { default: true, stage: 'Beta', effect: 'implemented' },
  RayServiceIncrementalUpgrade: { default: true, stage: 'Beta', effect: 'none' },
  RayCronJob: { default: false, stage: 'Alpha', effect: 'none' },
  SidecarSubmitterRestart: { default: false, stage: 'Alpha', effect: 'implemented' },
  RayClusterNetworkPolicy: { default: false, stage: 'Alpha', effect: 'warns' },
  GCSFaultToleranceEmbeddedStorage: { default: false, stage: 'Alpha', effect: 'warns' },
  RayClusterMTLS: { default: false, stage: 'Alpha', effect: 'warns' },
  RayClusterHistoryServer: { default: false, stage: 'Alpha', effect: 'warns' },
  KubernetesWAS: { default: false, stage: 'Alpha', effect: 'warns' },
  /** An earlier name of RayClusterNetworkPolicy in KubeRay's development branch; accepted so old values still start. */
  RayClusterNetworkIsolation: { default: false, stage: 'Alpha', effect: 'none' },
} as const satisfies Record<string, { default: boolean; stage: 'Alpha' | 'Beta'; effect: 'implemented' | 'warns' | 'none' }>;

export type GateName = keyof typeof KNOWN_GATES;
export type GateValues = Record<GateName, boolean>;
const isGate = (name: string): name is GateName => Object.hasOwn(KNOWN_GATES, name);
const gateNames = Object.keys(KNOWN_GATES) as GateName[];

export interface ParsedGates {
  /** Every gate's value: KubeRay's default unless set. */
  values: GateValues;
  /** Gates set on the command line that govern nothing this operator serves (reported at start). */
  withoutEffect: string[];
}

/**
 * Parses `A=true,B=false` as Kubernetes' component-base feature gate does: unknown gate or non-boolean value is an
 * error; `AllAlpha=`/`AllBeta=` set every gate of that stage first, then named gates override.
 */
export function parseFeatureGates(text: string): { ok: true; value: ParsedGates } | { ok: false; message: string } {
  const values = Object.fromEntries(gateNames.map((g) => [g, KNOWN_GATES[g].default])) as GateValues;
  const named: [GateName, boolean][] = [];
  const all: ['Alpha' | 'Beta', boolean][] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const [rawName = '', value, ...extra] = item.split('=');
    const name = rawName.trim();
    if (value === undefined || extra.length > 0) return { ok: false, message: `--feature-gates: missing bool value for ${name} (use ${name}=true)` };
    const v = value.trim().toLowerCase();
    if (v !== 'true' && v !== 'false') return { ok: false, message: `--feature-gates: invalid value of ${name}=${value}, must be true or false` };
    if (name === 'AllAlpha' || name === 'AllBeta') {
      all.push([name === 'AllAlpha' ? 'Alpha' : 'Beta', v === 'true']);
      continue;
    }
    if (!isGate(name)) return { ok: false, message: `--feature-gates: unrecognized feature gate: ${name} (known: ${gateNames.join(', ')})` };
    named.push([name, v === 'true']);
  }
  for (const [stage, on] of all) for (const g of gateNames) if (KNOWN_GATES[g].stage === stage) values[g] = on;
  for (const [g, on] of named) values[g] = on;
  const withoutEffect = [...new Set(named.map(([g]) => g).filter((g) => KNOWN_GATES[g].effect === 'none'))];
  return { ok: true, value: { values, withoutEffect } };
}

/** The gates the RayJob decision and both controllers' validation read. */
export const decisionGates = (v: GateValues): FeatureGates & ValidationFeatureGates => ({
  rayJobDeletionPolicy: v.RayJobDeletionPolicy,
  sidecarSubmitterRestart: v.SidecarSubmitterRestart,
  rayClusterNetworkPolicy: v.RayClusterNetworkPolicy,
  gcsFaultToleranceEmbeddedStorage: v.GCSFaultToleranceEmbeddedStorage,
  rayClusterMTLS: v.RayClusterMTLS,
  rayClusterHistoryServer: v.RayClusterHistoryServer,
});

/** The gates the RayCluster builders and planner read. */
export const rayClusterGates = (v: GateValues): RayClusterFeatureGates => ({
  rayClusterStatusConditions: v.RayClusterStatusConditions,
  rayJobDeletionPolicy: v.RayJobDeletionPolicy,
  rayMultiHostIndexing: v.RayMultiHostIndexing,
});
