// Materialises a pod's volumes as real files under the pod's sandbox directory; the container
// prologue bind-mounts them at their mountPaths. Missing non-optional sources are a typed error
// (the pod stays ContainerCreating and the kubelet retries, as Kubernetes does after FailedMount).
import { closeSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KeyToPath, Pod, Volume } from '../kube-objects/types.ts';
import type { ObjectSource, PodFacts } from './env.ts';
import { decodeSecretData, fieldValue } from './env.ts';

export type VolumesResult = { ok: true; paths: Map<string, string> } | { ok: false; message: string };

export interface VolumeSources extends ObjectSource {
  /** A token for the pod's service account (TokenRequest if the server has it). */
  serviceAccountToken(namespace: string, serviceAccount: string, audience: string | undefined, expirationSeconds: number | undefined): Promise<string>;
}

function writeKeys(dir: string, data: Record<string, string>, items: KeyToPath[] | undefined): void {
  const entries = items === undefined
    ? Object.entries(data).map(([key, value]) => [key, value] as const)
    : items.filter((item) => Object.hasOwn(data, item.key)).map((item) => [item.path, data[item.key] ?? ''] as const);
  for (const [path, value] of entries) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, value);
  }
}

async function materialise(volume: Volume, dir: string, pod: Pod, sources: VolumeSources, facts: PodFacts): Promise<string | undefined> {
  const namespace = pod.metadata.namespace ?? 'default';
  mkdirSync(dir, { recursive: true });
  if (volume.configMap !== undefined) {
    const cm = await sources.configMap(namespace, volume.configMap.name);
    if (cm === undefined && volume.configMap.optional !== true) return `configmap "${volume.configMap.name}" not found`;
    writeKeys(dir, cm?.data ?? {}, volume.configMap.items);
  } else if (volume.secret !== undefined) {
    const secret = await sources.secret(namespace, volume.secret.secretName);
    if (secret === undefined && volume.secret.optional !== true) return `secret "${volume.secret.secretName}" not found`;
    writeKeys(dir, secret === undefined ? {} : decodeSecretData(secret), volume.secret.items);
  } else if (volume.downwardAPI !== undefined) {
    for (const item of volume.downwardAPI.items) {
      if (item.fieldRef !== undefined) writeKeys(dir, { v: fieldValue(pod, item.fieldRef.fieldPath, facts) ?? '' }, [{ key: 'v', path: item.path }]);
    }
  } else if (volume.projected !== undefined) {
    for (const source of volume.projected.sources) {
      if (source.serviceAccountToken !== undefined) {
        const token = await sources.serviceAccountToken(namespace, pod.spec.serviceAccountName ?? 'default', source.serviceAccountToken.audience, source.serviceAccountToken.expirationSeconds);
        writeKeys(dir, { token }, [{ key: 'token', path: source.serviceAccountToken.path }]);
      } else if (source.configMap !== undefined) {
        const cm = await sources.configMap(namespace, source.configMap.name);
        if (cm === undefined && source.configMap.optional !== true) return `configmap "${source.configMap.name}" not found`;
        writeKeys(dir, cm?.data ?? {}, source.configMap.items);
      } else if (source.secret !== undefined) {
        const secret = await sources.secret(namespace, source.secret.name);
        if (secret === undefined && source.secret.optional !== true) return `secret "${source.secret.name}" not found`;
        writeKeys(dir, secret === undefined ? {} : decodeSecretData(secret), source.secret.items);
      } else if (source.downwardAPI !== undefined) {
        for (const item of source.downwardAPI.items) {
          if (item.fieldRef !== undefined) writeKeys(dir, { v: fieldValue(pod, item.fieldRef.fieldPath, facts) ?? '' }, [{ key: 'v', path: item.path }]);
        }
      }
    }
  }
  // emptyDir and unsupported kinds (PVCs) are an empty directory.
  return undefined;
}

/**
 * hostPath: the node's own path, checked or created by its `type` as the kubelet does; the node is this machine,
 * so state a pod leaves there outlives the pod (what tests of retries across pods and clusters need).
 */
export function hostPathProblem(source: { path: string; type?: string }): string | undefined {
  const kind = (() => {
    try {
      const st = statSync(source.path);
      return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
    } catch {
      return 'missing';
    }
  })();
  switch (source.type ?? '') {
    case 'DirectoryOrCreate':
      if (kind === 'missing') mkdirSync(source.path, { recursive: true, mode: 0o755 });
      else if (kind !== 'directory') return `hostPath type check failed: ${source.path} is not a directory`;
      return undefined;
    case 'Directory':
      return kind === 'directory' ? undefined : `hostPath type check failed: ${source.path} is not a directory`;
    case 'FileOrCreate':
      if (kind === 'missing') {
        mkdirSync(dirname(source.path), { recursive: true });
        closeSync(openSync(source.path, 'a', 0o644));
      } else if (kind !== 'file') return `hostPath type check failed: ${source.path} is not a file`;
      return undefined;
    case 'File':
      return kind === 'file' ? undefined : `hostPath type check failed: ${source.path} is not a file`;
    default:
      return undefined;
  }
}

export async function prepareVolumes(pod: Pod, podDir: string, sources: VolumeSources, facts: PodFacts): Promise<VolumesResult> {
  const paths = new Map<string, string>();
  for (const volume of pod.spec.volumes ?? []) {
    if (volume.hostPath !== undefined) {
      const problem = hostPathProblem(volume.hostPath);
      if (problem !== undefined) return { ok: false, message: `MountVolume.SetUp failed for volume "${volume.name}" : ${problem}` };
      paths.set(volume.name, volume.hostPath.path);
      continue;
    }
    const dir = join(podDir, 'volumes', volume.name);
    const problem = await materialise(volume, dir, pod, sources, facts);
    if (problem !== undefined) return { ok: false, message: `MountVolume.SetUp failed for volume "${volume.name}" : ${problem}` };
    paths.set(volume.name, dir);
  }
  return { ok: true, paths };
}
