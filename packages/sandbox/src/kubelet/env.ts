// Resolves a container's environment as the kubelet does: envFrom sources in order, then env
// entries in order (later wins), each value's $(VAR) expanded against what is defined so far.
// Missing references become a typed error the caller reports as CreateContainerConfigError.
import type { ConfigMap, Container, Pod, Secret } from '../kube-objects/types.ts';
import { expandVars } from './expand-vars.ts';

export interface ObjectSource {
  configMap(namespace: string, name: string): Promise<ConfigMap | undefined>;
  secret(namespace: string, name: string): Promise<Secret | undefined>;
}

export type EnvResult = { ok: true; env: Record<string, string> } | { ok: false; message: string };

export interface PodFacts { podIP: string; hostIP: string; nodeName: string }

export function fieldValue(pod: Pod, fieldPath: string, facts: PodFacts): string | undefined {
  const labelOrAnnotation = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (labelOrAnnotation !== null) {
    const map = labelOrAnnotation[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations;
    return map?.[labelOrAnnotation[2] ?? ''] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name': return pod.metadata.name ?? '';
    case 'metadata.namespace': return pod.metadata.namespace ?? '';
    case 'metadata.uid': return pod.metadata.uid ?? '';
    case 'spec.nodeName': return facts.nodeName;
    case 'spec.serviceAccountName': return pod.spec.serviceAccountName ?? 'default';
    case 'status.podIP': case 'status.podIPs': return facts.podIP;
    case 'status.hostIP': case 'status.hostIPs': return facts.hostIP;
    default: return undefined;
  }
}

export function decodeSecretData(secret: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(secret.data ?? {})) out[key] = Buffer.from(value, 'base64').toString('utf8');
  for (const [key, value] of Object.entries(secret.stringData ?? {})) out[key] = value;
  return out;
}

export async function resolveEnv(pod: Pod, container: Container, source: ObjectSource, facts: PodFacts): Promise<EnvResult> {
  const namespace = pod.metadata.namespace ?? 'default';
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef !== undefined) {
      const cm = await source.configMap(namespace, from.configMapRef.name);
      if (cm === undefined) {
        if (from.configMapRef.optional === true) continue;
        return { ok: false, message: `configmap "${from.configMapRef.name}" not found` };
      }
      for (const [key, value] of Object.entries(cm.data ?? {})) env[prefix + key] = value;
    }
    if (from.secretRef !== undefined) {
      const secret = await source.secret(namespace, from.secretRef.name);
      if (secret === undefined) {
        if (from.secretRef.optional === true) continue;
        return { ok: false, message: `secret "${from.secretRef.name}" not found` };
      }
      for (const [key, value] of Object.entries(decodeSecretData(secret))) env[prefix + key] = value;
    }
  }
  const lookup = (name: string): string | undefined => (Object.hasOwn(env, name) ? env[name] : undefined);
  for (const entry of container.env ?? []) {
    if (entry.valueFrom === undefined) {
      env[entry.name] = expandVars(entry.value ?? '', lookup);
      continue;
    }
    const { configMapKeyRef, secretKeyRef, fieldRef, resourceFieldRef } = entry.valueFrom;
    if (configMapKeyRef !== undefined) {
      const cm = await source.configMap(namespace, configMapKeyRef.name ?? '');
      const value = cm?.data?.[configMapKeyRef.key];
      if (value === undefined) {
        if (configMapKeyRef.optional === true) continue;
        return { ok: false, message: cm === undefined
          ? `configmap "${configMapKeyRef.name}" not found`
          : `couldn't find key ${configMapKeyRef.key} in ConfigMap ${namespace}/${configMapKeyRef.name}` };
      }
      env[entry.name] = value;
    } else if (secretKeyRef !== undefined) {
      const secret = await source.secret(namespace, secretKeyRef.name ?? '');
      const value = secret === undefined ? undefined : decodeSecretData(secret)[secretKeyRef.key];
      if (value === undefined) {
        if (secretKeyRef.optional === true) continue;
        return { ok: false, message: secret === undefined
          ? `secret "${secretKeyRef.name}" not found`
          : `couldn't find key ${secretKeyRef.key} in Secret ${namespace}/${secretKeyRef.name}` };
      }
      env[entry.name] = value;
    } else if (fieldRef !== undefined) {
      const value = fieldValue(pod, fieldRef.fieldPath, facts);
      if (value === undefined) return { ok: false, message: `unsupported fieldRef fieldPath "${fieldRef.fieldPath}" in env ${entry.name}` };
      env[entry.name] = value;
    } else if (resourceFieldRef !== undefined) {
      // No resource accounting here: report the node's capacity as "unlimited" the way Kubernetes does without limits.
      env[entry.name] = resourceFieldRef.resource.includes('cpu') ? '2' : String(24 * 1024 ** 3);
    }
  }
  return { ok: true, env };
}
