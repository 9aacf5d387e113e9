import type { Container, EnvVar, PodTemplateSpec } from '../schema/pod.ts';

/** Small readers over pod templates, shared by the RayCluster checks. */

export const containersOf = (template: PodTemplateSpec | undefined): Container[] => template?.spec?.containers ?? [];

/** Container 0 is the Ray container, as in KubeRay. */
export const rayContainerOf = (template: PodTemplateSpec | undefined): Container | undefined => containersOf(template)[0];

export const envVarByName = (name: string, env: readonly EnvVar[] | undefined): EnvVar | undefined =>
  env?.find((e) => e.name === name);

export const hasEnvVar = (name: string, env: readonly EnvVar[] | undefined): boolean => envVarByName(name, env) !== undefined;

/** Volume mounts are carried opaquely; these are the two fields the checks read. */
export const volumeMountsOf = (container: { volumeMounts?: unknown[] | undefined } | undefined) =>
  (container?.volumeMounts ?? []) as { name?: string; mountPath?: string }[];
