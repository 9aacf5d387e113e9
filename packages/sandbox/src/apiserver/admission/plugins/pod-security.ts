// The PodSecurity admission plugin: a namespace's `pod-security.kubernetes.io/<mode>` labels (enforce, warn;
// `<mode>-version` pins the policy version, default latest) choose privileged, baseline or restricted; a label
// naming no level is refused on the namespace (422).
// enforce refuses a pod that violates its level with kube-apiserver's 403
// (`pods "x" is forbidden: violates PodSecurity "restricted:latest": reason (detail), ...`); warn answers with a
// `would violate PodSecurity ...` warning, for pods and for the pod templates of workload resources (enforce does
// not apply to templates: the controller's pods are refused when it creates them).
import type { KubeObject } from '../../../store/types.ts';
import type { ApiContext } from '../../storage/context.ts';
import { deepEqual } from '../../registry/object-meta.ts';
import { podViolations, type Level } from './pod-security-checks.ts';
import { invalidValue } from '../../errors/field-errors.ts';
import { invalid } from '../../errors/status.ts';
import { admissionForbidden, type AdmissionRequest } from '../request.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

const labelPrefix = 'pod-security.kubernetes.io/';
const levels = new Set(['privileged', 'baseline', 'restricted']);

interface Policy {
  level: Level;
  /** The label's version text ("latest", "v1.29") and the minor it means. */
  version: string;
  minor: number;
}

/** A mode's policy from namespace labels: absent is privileged; an invalid level or version is the strictest. */
function policyOf(labels: Record<string, string>, mode: 'enforce' | 'warn'): Policy {
  const levelText = labels[`${labelPrefix}${mode}`];
  const versionText = labels[`${labelPrefix}${mode}-version`] ?? 'latest';
  const level: Level = levelText === undefined ? 'privileged' : levels.has(levelText) ? (levelText as Level) : 'restricted';
  const match = /^v1\.(\d+)$/.exec(versionText);
  if (versionText === 'latest' || !match) return { level, version: 'latest', minor: Infinity };
  return { level, version: versionText, minor: Number(match[1]) };
}

/** Where a workload kind keeps its pod template. */
const templatePaths: Record<string, string[]> = {
  'apps/deployments': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
  '/replicationcontrollers': ['spec', 'template'],
  '/podtemplates': ['template'],
};

const describe = (policy: Policy, violations: ReturnType<typeof podViolations>): string =>
  `PodSecurity "${policy.level}:${policy.version}": ${violations.map((v) => `${v.reason} (${v.detail})`).join(', ')}`;

/** Pod spec with every container image blanked: an update that changes only images is not re-checked. */
function specIgnoringImages(pod: KubeObject | undefined): unknown {
  const spec = structuredClone(o(pod?.spec));
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    const list = spec[key];
    if (Array.isArray(list)) for (const c of list as Obj[]) delete c.image;
  }
  return spec;
}

/** A namespace's Pod Security level labels must name a level (kube-apiserver's 422). */
function checkNamespaceLabels(request: AdmissionRequest): void {
  const labels = (request.object?.metadata.labels ?? {}) as Record<string, string>;
  const causes = (['enforce', 'audit', 'warn'] as const)
    .map((mode) => `${labelPrefix}${mode}`)
    .filter((key) => labels[key] !== undefined && !levels.has(labels[key] as string))
    .map((key) => invalidValue(`metadata.labels[${key}]`, labels[key], 'must be one of privileged, baseline, restricted'));
  if (causes.length > 0) throw invalid('Namespace', '', request.name, causes);
}

export function admitPodSecurity(ctx: ApiContext, request: AdmissionRequest): void {
  const { rt, object } = request;
  if (rt.group === '' && rt.plural === 'namespaces' && request.operation !== 'DELETE' && request.subresource === undefined) return checkNamespaceLabels(request);
  if (request.operation === 'DELETE' || !object || request.namespace === '') return;
  const isPod = rt.group === '' && rt.plural === 'pods';
  const templatePath = templatePaths[`${rt.group}/${rt.plural}`];
  if (!isPod && !templatePath) return;
  if (request.subresource !== undefined && !(isPod && request.subresource === 'ephemeralcontainers')) return;
  const ns = ctx.store.get('/namespaces', '', request.namespace);
  const labels = (ns?.metadata.labels ?? {}) as Record<string, string>;
  if (!Object.keys(labels).some((k) => k.startsWith(labelPrefix))) return;

  let meta: Obj;
  let spec: Obj;
  if (isPod) {
    if (request.operation === 'UPDATE' && deepEqual(specIgnoringImages(object), specIgnoringImages(request.oldObject))) return;
    meta = o(object.metadata);
    spec = o(object.spec);
  } else {
    let template: unknown = object;
    for (const key of templatePath ?? []) template = o(template)[key];
    meta = o(o(template).metadata);
    spec = o(o(template).spec);
  }

  if (isPod) {
    const enforce = policyOf(labels, 'enforce');
    const violations = podViolations(enforce.level, enforce.minor, meta, spec);
    if (violations.length > 0) throw admissionForbidden(request, `violates ${describe(enforce, violations)}`);
  }
  const warn = policyOf(labels, 'warn');
  const warned = podViolations(warn.level, warn.minor, meta, spec);
  if (warned.length > 0) request.warnings?.push(`would violate ${describe(warn, warned)}`);
}
