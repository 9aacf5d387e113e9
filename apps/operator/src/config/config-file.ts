import { ContainerSchema, EnvVarSchema } from '@rayjob/core';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/**
 * KubeRay's structured configuration file (`--config`, apiVersion config.ray.io/v1alpha1, kind Configuration), as
 * its chart writes it to /etc/kuberay/config.yaml. KubeRay's decoder ignores fields it does not know, so a file
 * from a newer KubeRay still loads here; those fields are returned so the operator can log them. A field of the
 * wrong type is an error naming the field.
 */
export const CONFIG_API_VERSION = 'config.ray.io/v1alpha1';

const stringMap = z.record(z.string(), z.string());

export const KubeRayConfigurationSchema = z.object({
  apiVersion: z.literal(CONFIG_API_VERSION, { message: `must be ${CONFIG_API_VERSION}` }),
  kind: z.literal('Configuration', { message: 'must be Configuration' }),
  metricsAddr: z.string().optional(),
  probeAddr: z.string().optional(),
  enableLeaderElection: z.boolean().optional(),
  leaderElectionNamespace: z.string().optional(),
  reconcileConcurrency: z.number().int().optional(),
  watchNamespace: z.string().optional(),
  logFile: z.string().optional(),
  logFileEncoder: z.string().optional(),
  logStdoutEncoder: z.string().optional(),
  batchScheduler: z.string().optional(),
  enableBatchScheduler: z.boolean().optional(),
  useKubernetesProxy: z.boolean().optional(),
  deleteRayJobAfterJobFinishes: z.boolean().optional(),
  enableMetrics: z.boolean().optional(),
  qps: z.number().positive().optional(),
  burst: z.number().int().positive().optional(),
  headSidecarContainers: z.array(ContainerSchema).optional(),
  workerSidecarContainers: z.array(ContainerSchema).optional(),
  defaultContainerEnvs: z.array(EnvVarSchema).optional(),
  defaultPodAnnotations: stringMap.optional(),
  defaultPodLabels: stringMap.optional(),
});
export type KubeRayConfiguration = z.infer<typeof KubeRayConfigurationSchema>;

export type ConfigFileResult = { ok: true; value: KubeRayConfiguration; unknownFields: string[] } | { ok: false; message: string };

/** The file's text -> the Configuration, or a message naming the file, the field and what it must be. */
export function parseConfigFile(path: string, text: string): ConfigFileResult {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return { ok: false, message: `--config ${path}: not YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return { ok: false, message: `--config ${path}: must hold one object (apiVersion: ${CONFIG_API_VERSION}, kind: Configuration)` };
  }
  const parsed = KubeRayConfigurationSchema.safeParse(doc);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, message: `--config ${path}: ${issues.join('; ')}` };
  }
  const known = new Set(Object.keys(KubeRayConfigurationSchema.shape));
  return { ok: true, value: parsed.data, unknownFields: Object.keys(doc).filter((k) => !known.has(k)) };
}
