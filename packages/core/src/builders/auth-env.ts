import { SubmitterEnv } from '../contracts/submitter-cli.ts';
import type { EnvVar, RayClusterSpec } from '../schema/index.ts';
import { clipName } from './clip-name.ts';

/**
 * Secret name holding a cluster's auth token when authOptions.secretName is not set: the cluster name, kept
 * to 50 characters by dropping leading ones, and a leading digit or punctuation replaced by `r` (KubeRay).
 */
export function authSecretName(clusterName: string, spec: RayClusterSpec | undefined): string {
  const explicit = spec?.authOptions?.secretName;
  if (explicit) return explicit;
  return clipName(clusterName);
}

export function tokenAuthEnabled(spec: RayClusterSpec | undefined): boolean {
  return spec?.authOptions?.mode === 'token';
}

/** Env that lets a submitter talk to a token-auth cluster; the token itself comes from the Secret, never inline. */
export function authEnv(clusterName: string, spec: RayClusterSpec | undefined, existing: readonly EnvVar[]): EnvVar[] {
  if (!tokenAuthEnabled(spec)) return [];
  const out: EnvVar[] = [];
  if (!existing.some((e) => e.name === SubmitterEnv.authMode)) out.push({ name: SubmitterEnv.authMode, value: 'token' });
  out.push({
    name: SubmitterEnv.authToken,
    valueFrom: { secretKeyRef: { name: authSecretName(clusterName, spec), key: 'auth_token' } },
  });
  return out;
}

/**
 * Sets env entries, replacing any user entry of the same name (KubeRay appends duplicates, so a user's
 * RAY_JOB_SUBMISSION_ID could silently shadow the real one: a listed difference).
 */
export function upsertEnv(env: readonly EnvVar[] | undefined, add: readonly EnvVar[]): EnvVar[] {
  const names = new Set(add.map((e) => e.name));
  return [...(env ?? []).filter((e) => !names.has(e.name)), ...add];
}
