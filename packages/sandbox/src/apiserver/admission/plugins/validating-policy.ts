// The ValidatingAdmissionPolicy admission plugin: for every binding whose policy and match rules apply, the
// policy's matchConditions gate it, then each validation's CEL runs over object, oldObject, request (userInfo
// included), params, namespaceObject and variables. A failure under validationActions Deny refuses the request
// as kube-apiserver does: `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>' with binding '<b>'
// denied request: <message>` with the validation's reason (default Invalid, so 422) and the message as the one
// cause; Warn turns it into a warning. An expression that errors follows failurePolicy (default Fail).
import type { KubeObject } from '../../../store/types.ts';
import { evaluateCel } from '../../schema/cel.ts';
import type { ApiContext } from '../../storage/context.ts';
import { ApiError } from '../../errors/status.ts';
import { matchResources } from './policy-match.ts';
import { bindingBucket, policyBucket } from './policy-resources.ts';
import { admissionForbidden, type AdmissionRequest } from '../request.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const reasonCodes: Record<string, number> = { Unauthorized: 401, Forbidden: 403, Invalid: 422, RequestEntityTooLarge: 413 };
const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);

/** The `request` variable: admission.k8s.io/v1 AdmissionRequest fields. */
function requestVariable(request: AdmissionRequest): Obj {
  const { rt, user } = request;
  const kind = { group: rt.group, version: rt.version, kind: rt.kind };
  const resource = { group: rt.group, version: rt.version, resource: rt.plural };
  return {
    kind,
    resource,
    subResource: request.subresource ?? '',
    requestKind: kind,
    requestResource: resource,
    requestSubResource: request.subresource ?? '',
    name: request.name,
    namespace: request.namespace,
    operation: request.operation,
    userInfo: { username: user.username, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} },
    dryRun: request.dryRun,
    options: {},
  };
}

class EvaluationError extends Error {}

/** Runs one expression; a runtime error becomes the message kube-apiserver gives. */
function run(expression: string, env: Obj): unknown {
  try {
    return evaluateCel(expression, env);
  } catch (e) {
    throw new EvaluationError(`expression '${expression}' resulted in error: ${(e as Error).message}`);
  }
}

/** `variables.<name>`, each evaluated on first use (and once), as composited CEL variables are. */
function withVariables(env: Obj, variables: Obj[]): Obj {
  const values: Obj = {};
  const out = { ...env, variables: values };
  for (const v of variables) {
    const name = String(v.name ?? '');
    let cached: { value: unknown } | undefined;
    Object.defineProperty(values, name, {
      enumerable: true,
      get: () => {
        cached ??= { value: run(String(v.expression ?? ''), out) };
        return cached.value;
      },
    });
  }
  return out;
}

/** The params a binding evaluates with: undefined when none were found (parameterNotFoundAction decides). */
function paramsOf(ctx: ApiContext, request: AdmissionRequest, policy: KubeObject, binding: KubeObject): Array<KubeObject | null> | undefined {
  const paramKind = o(o(policy.spec).paramKind);
  if (!paramKind.kind) return [null];
  const ref = o(o(binding.spec).paramRef);
  const [group, version] = String(paramKind.apiVersion ?? '').includes('/') ? String(paramKind.apiVersion).split('/') : ['', String(paramKind.apiVersion ?? '')];
  const rt = ctx.registry.all().find((t) => t.group === group && t.version === version && t.kind === paramKind.kind);
  if (!rt) return undefined;
  const namespace = rt.namespaced ? String(ref.namespace ?? request.namespace) : '';
  if (typeof ref.name === 'string' && ref.name !== '') {
    const found = ctx.store.get(rt.bucket, namespace, ref.name);
    return found ? [found] : undefined;
  }
  const selector = o(ref.selector);
  const matchLabels = o(selector.matchLabels) as Record<string, string>;
  const found = ctx.store.list(rt.bucket, rt.namespaced ? namespace : undefined).filter((p) => Object.entries(matchLabels).every(([k, v]) => p.metadata.labels?.[k] === v));
  return found.length > 0 ? found : undefined;
}

interface Denial {
  message: string;
  reason: string;
}

/** The first failing validation of a policy for one params object, or undefined. */
function evaluate(policy: KubeObject, env: Obj): Denial | undefined {
  for (const v of arr(o(policy.spec).validations)) {
    const expression = String(v.expression ?? '');
    if (run(expression, env) === true) continue;
    let message = typeof v.message === 'string' && v.message.trim() !== '' ? v.message.trim() : `failed expression: ${expression.trim()}`;
    if (typeof v.messageExpression === 'string') {
      try {
        const computed = evaluateCel(v.messageExpression, env);
        if (typeof computed === 'string' && computed.trim() !== '') message = computed.trim();
      } catch {
        /* kube-apiserver falls back to message when messageExpression fails */
      }
    }
    return { message, reason: typeof v.reason === 'string' && v.reason !== '' ? v.reason : 'Invalid' };
  }
  return undefined;
}

function deny(request: AdmissionRequest, policy: string, binding: string, denial: Denial): ApiError {
  const text = `ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: ${denial.message}`;
  const error = admissionForbidden(request, text);
  error.status.reason = denial.reason;
  error.status.code = reasonCodes[denial.reason] ?? 422;
  error.status.details = { ...error.status.details, causes: [{ message: text } as { reason: string; message: string; field: string }] };
  return error;
}

export function admitValidatingPolicies(ctx: ApiContext, request: AdmissionRequest): void {
  const bindings = ctx.store.list(bindingBucket, '');
  if (bindings.length === 0) return;
  const policies = new Map(ctx.store.list(policyBucket, '').map((p) => [p.metadata.name ?? '', p]));
  const ordered = bindings
    .filter((b) => policies.has(String(o(b.spec).policyName ?? '')))
    .sort((a, b) => byName(policies.get(String(o(a.spec).policyName)) as KubeObject, policies.get(String(o(b.spec).policyName)) as KubeObject) || byName(a, b));
  const namespaceObject = request.namespace === '' ? null : (ctx.store.get('/namespaces', '', request.namespace) ?? null);
  const base: Obj = { object: request.object ?? null, oldObject: request.oldObject ?? null, request: requestVariable(request), namespaceObject };
  for (const binding of ordered) {
    const policy = policies.get(String(o(binding.spec).policyName)) as KubeObject;
    const spec = o(policy.spec);
    const policyName = policy.metadata.name ?? '';
    const bindingName = binding.metadata.name ?? '';
    if (!matchResources(ctx, request, spec.matchConstraints, true)) continue;
    if (o(binding.spec).matchResources !== undefined && !matchResources(ctx, request, o(binding.spec).matchResources, false)) continue;
    const actions = (o(binding.spec).validationActions as string[] | undefined) ?? [];
    const fail = spec.failurePolicy !== 'Ignore';
    const params = paramsOf(ctx, request, policy, binding);
    const outcomes: Denial[] = [];
    try {
      if (params === undefined) {
        if (o(o(binding.spec).paramRef).parameterNotFoundAction === 'Deny') outcomes.push({ message: 'no params found for policy binding with `Deny` parameterNotFoundAction', reason: 'Invalid' });
      } else {
        for (const param of params) {
          const env = withVariables({ ...base, params: param }, arr(spec.variables));
          if (!arr(spec.matchConditions).every((c) => run(String(c.expression ?? ''), env) === true)) continue;
          const denial = evaluate(policy, env);
          if (denial) outcomes.push(denial);
        }
      }
    } catch (e) {
      if (!(e instanceof EvaluationError)) throw e;
      if (fail) outcomes.push({ message: e.message, reason: 'Invalid' });
    }
    for (const denial of outcomes) {
      if (actions.includes('Deny')) throw deny(request, policyName, bindingName, denial);
      if (actions.includes('Warn')) request.warnings?.push(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${denial.message}`);
    }
  }
}
