import type { FeatureGates } from '@rayjob/core';

/**
 * KubeRay's feature gates. Only RayJobDeletionPolicy and SidecarSubmitterRestart change what this operator
 * does; the others are accepted (so a KubeRay deployment's `--feature-gates` works unchanged) and reported as
 * having no effect here.
 */
const KNOWN_GATES = {
  RayClusterStatusConditions: true,
  RayJobDeletionPolicy: true,
  RayMultiHostIndexing: false,
  RayServiceIncrementalUpgrade: false,
  RayCronJob: false,
  SidecarSubmitterRestart: false,
  RayClusterNetworkIsolation: false,
} as const satisfies Record<string, boolean>;

type GateName = keyof typeof KNOWN_GATES;
const isGate = (name: string): name is GateName => Object.hasOwn(KNOWN_GATES, name);

export interface ParsedGates {
  gates: FeatureGates;
  /** Gates set on the command line that this operator accepts but does not act on. */
  withoutEffect: string[];
}

/** Parses `A=true,B=false` as Kubernetes' feature-gate flag does (unknown gate or non-boolean value: error). */
export function parseFeatureGates(text: string): { ok: true; value: ParsedGates } | { ok: false; message: string } {
  const values: Record<GateName, boolean> = { ...KNOWN_GATES };
  const withoutEffect: string[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const [name = '', value, ...extra] = item.split('=');
    if (value === undefined || extra.length > 0) return { ok: false, message: `--feature-gates: missing bool value for ${name} (use ${name}=true)` };
    if (!isGate(name.trim())) {
      return { ok: false, message: `--feature-gates: unrecognized feature gate: ${name} (known: ${Object.keys(KNOWN_GATES).join(', ')})` };
    }
    const gate = name.trim() as GateName;
    const v = value.trim().toLowerCase();
    if (v !== 'true' && v !== 'false') return { ok: false, message: `--feature-gates: invalid value of ${gate}=${value}, must be true or false` };
    values[gate] = v === 'true';
    if (gate !== 'RayJobDeletionPolicy' && gate !== 'SidecarSubmitterRestart') withoutEffect.push(gate);
  }
  return {
    ok: true,
    value: {
      gates: { rayJobDeletionPolicy: values.RayJobDeletionPolicy, sidecarSubmitterRestart: values.SidecarSubmitterRestart },
      withoutEffect,
    },
  };
}
