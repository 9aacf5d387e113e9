import { parseQuantity, quantityCeil, quantityToNumber } from '../../quantity/quantity.ts';
import type { ResourceRequirements } from '../../schema/index.ts';
import { sortedJson } from '../sorted-json.ts';

/**
 * The `ray start` line KubeRay generates for a head or worker: rayStartParams completed with the group's
 * `resources` and `labels`, KubeRay's defaults and the Ray container's limits, then rendered flag by flag.
 */

export type RayNodeType = 'head' | 'worker';

const GPU_MIG = /nvidia\.com\/mig-\d+g\.\d+gb$/;
/** Resource names whose first non-zero limit becomes a custom Ray resource (KubeRay's accelerator map). */
const CUSTOM_ACCELERATORS: Record<string, string> = { 'aws.amazon.com/neuroncore': 'neuron_cores', 'google.com/tpu': 'TPU' };
/** Flags KubeRay always renders as `--key=value`, even for true/false. */
const EXPLICIT_BOOLEAN_FLAGS = new Set(['log-color', 'include-dashboard', 'include-log-monitor']);

export const isGpuResourceName = (name: string): boolean => name.endsWith('gpu') || GPU_MIG.test(name);

export interface RayStartInput {
  nodeType: RayNodeType;
  rayStartParams: Record<string, string> | undefined;
  /** The group's top-level `resources` map. */
  groupResources: Record<string, string> | undefined;
  /** The group's top-level `labels` map. */
  groupLabels: Record<string, string> | undefined;
  /** Ray container resources (limits/requests). */
  containerResources: ResourceRequirements | undefined;
  /** Worker only: `<head FQDN>:<head port>`. */
  headAddress?: string;
  /** Head of an autoscaling cluster: the sidecar is Ray's monitor, so `ray start` runs none (`--no-monitor`). */
  autoscaling?: boolean;
}

/** The completed parameter map (a new object; the spec is not touched). */
export function completeRayStartParams(input: RayStartInput): Record<string, string> {
  const params: Record<string, string> = { ...(input.rayStartParams ?? {}) };
  applyGroupResources(params, input.groupResources);
  const labels = Object.entries(input.groupLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (labels.length > 0) params.labels = labels.map(([k, v]) => `${k}=${v}`).join(',');
  if (input.nodeType === 'worker' && !('address' in params)) params.address = input.headAddress ?? '';
  if (input.nodeType === 'head' && !('dashboard-host' in params)) params['dashboard-host'] = '0.0.0.0';
  if (!('metrics-export-port' in params)) params['metrics-export-port'] = '8080';
  params.block = 'true';
  if (!('dashboard-agent-listen-port' in params)) params['dashboard-agent-listen-port'] = '52365';
  if (input.autoscaling) params['no-monitor'] = 'true';
  applyContainerResources(params, input.containerResources);
  return params;
}

function applyGroupResources(params: Record<string, string>, resources: Record<string, string> | undefined): void {
  const custom: Record<string, number> = {};
  for (const [name, text] of Object.entries(resources ?? {})) {
    const q = parseQuantity(text);
    if (!q) continue; // KubeRay logs and skips what it cannot parse
    const lower = name.toLowerCase();
    if (lower === 'cpu') params['num-cpus'] = String(quantityCeil(q));
    else if (lower === 'memory') params.memory = String(quantityCeil(q));
    else if (isGpuResourceName(lower)) params['num-gpus'] = String(quantityCeil(q));
    else custom[name] = quantityToNumber(q);
  }
  if (Object.keys(custom).length > 0) params.resources = `'${sortedJson(custom)}'`;
}

function applyContainerResources(params: Record<string, string>, resources: ResourceRequirements | undefined): void {
  const limit = (name: string) => quantityOf(resources?.limits?.[name]);
  if (!('num-cpus' in params)) {
    const cpu = limit('cpu') ?? quantityOf(resources?.requests?.cpu);
    if (cpu !== undefined) params['num-cpus'] = String(cpu);
  }
  if (!('memory' in params)) {
    const memory = limit('memory');
    if (memory !== undefined) params.memory = String(memory);
  }
  const limits = Object.keys(resources?.limits ?? {}).sort();
  if (limits.length === 0) return;
  let customResources: Record<string, number>;
  try {
    const text = params.resources?.replace(/^['"` ]+|['"` ]+$/g, '');
    customResources = text ? (JSON.parse(text) as Record<string, number>) : {};
  } catch {
    return; // KubeRay logs the unparsable `resources` and adds nothing
  }
  let acceleratorDone = Object.values(CUSTOM_ACCELERATORS).some((rayName) => rayName in customResources);
  for (const name of limits) {
    const q = parseQuantity(resources?.limits?.[name] ?? '');
    if (!q || q.nanos === 0n) continue;
    if (!('num-gpus' in params) && isGpuResourceName(name)) params['num-gpus'] = String(quantityCeil(q));
    const rayName = CUSTOM_ACCELERATORS[name];
    if (!acceleratorDone && rayName !== undefined) {
      if (!(rayName in customResources)) {
        customResources[rayName] = quantityToNumber(q);
        params.resources = `'${sortedJson(customResources)}'`;
      }
      acceleratorDone = true;
    }
  }
}

/** A non-zero quantity rounded up, or undefined when absent, zero or unparsable. */
function quantityOf(value: string | number | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  const q = parseQuantity(value);
  return q && q.nanos !== 0n ? quantityCeil(q) : undefined;
}

/**
 * `ray start --head ` / `ray start ` followed by ` --flag ` fragments in key order: `true` (any case) renders as a
 * bare flag, `false` drops it, anything else renders `--key=value` verbatim (KubeRay's spacing kept: two spaces
 * between flags and a trailing space, because KUBERAY_GEN_RAY_START_CMD users may compare it).
 */
export function rayStartCommand(nodeType: RayNodeType, params: Record<string, string>): string {
  let flags = '';
  for (const key of Object.keys(params).sort()) {
    const value = params[key] ?? '';
    const lower = value.toLowerCase();
    if ((lower === 'true' || lower === 'false') && !EXPLICIT_BOOLEAN_FLAGS.has(key)) {
      if (lower === 'true') flags += ` --${key} `;
    } else {
      flags += ` --${key}=${value} `;
    }
  }
  return nodeType === 'head' ? `ray start --head ${flags}` : `ray start ${flags}`;
}

export const ULIMIT_PREFIX = 'ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}';

/** `["/bin/bash", "-c", "--"]`, or `-cl` with a login shell (KubeRay's GetContainerCommand). */
export function rayContainerCommand(loginShell: boolean): string[] {
  return ['/bin/bash', loginShell ? '-cl' : '-c', '--'];
}
