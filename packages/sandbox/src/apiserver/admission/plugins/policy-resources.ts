// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: stored
// cluster-scoped kinds whose create/update is validated as kube-apiserver does the parts a user trips on
// (required fields, enum values, CEL that does not compile), so a broken policy fails at apply, not at admission.
import type { KubeObject } from '../../../store/types.ts';
import { checkCelSyntax } from '../../schema/cel.ts';
import { invalidValue, requiredValue, unsupportedValue } from '../../errors/field-errors.ts';
import { defineResource } from '../../registry/define-resource.ts';
import type { ResourceType } from '../../registry/resource-types.ts';
import type { StatusCause } from '../../errors/status.ts';
import { createdAtTable } from '../../tables/tables-builtin.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const group = 'admissionregistration.k8s.io';
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

function compiles(field: string, expression: unknown, out: StatusCause[]): void {
  if (typeof expression !== 'string' || expression.trim() === '') {
    out.push(requiredValue(field));
    return;
  }
  const error = checkCelSyntax(expression);
  if (error) out.push(invalidValue(field, expression, `compilation failed: ${error}`));
}

function validateRules(field: string, rules: unknown, out: StatusCause[]): void {
  arr(rules).forEach((rule, i) => {
    for (const key of ['apiGroups', 'apiVersions', 'resources', 'operations']) {
      if (!Array.isArray(rule[key]) || (rule[key] as unknown[]).length === 0) out.push(requiredValue(`${field}[${i}].${key}`));
    }
    arr(rule.operations).forEach((op, j) => {
      if (!operations.includes(op as unknown as string)) out.push(unsupportedValue(`${field}[${i}].operations[${j}]`, op, operations.slice(0)));
    });
  });
}

function validatePolicy(policy: KubeObject): StatusCause[] {
  const spec = o(policy.spec);
  const out: StatusCause[] = [];
  const constraints = spec.matchConstraints;
  if (constraints === undefined) out.push(requiredValue('spec.matchConstraints'));
  else if (arr(o(constraints).resourceRules).length === 0) out.push(requiredValue('spec.matchConstraints.resourceRules'));
  validateRules('spec.matchConstraints.resourceRules', o(constraints).resourceRules, out);
  if (spec.failurePolicy !== undefined && spec.failurePolicy !== 'Fail' && spec.failurePolicy !== 'Ignore') {
    out.push(unsupportedValue('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']));
  }
  if (arr(spec.validations).length === 0 && arr(spec.auditAnnotations).length === 0) {
    out.push(requiredValue('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  }
  arr(spec.validations).forEach((v, i) => {
    compiles(`spec.validations[${i}].expression`, v.expression, out);
    if (v.messageExpression !== undefined) compiles(`spec.validations[${i}].messageExpression`, v.messageExpression, out);
  });
  arr(spec.matchConditions).forEach((c, i) => {
    if (!c.name) out.push(requiredValue(`spec.matchConditions[${i}].name`));
    compiles(`spec.matchConditions[${i}].expression`, c.expression, out);
  });
  arr(spec.variables).forEach((v, i) => {
    if (!v.name) out.push(requiredValue(`spec.variables[${i}].name`));
    compiles(`spec.variables[${i}].expression`, v.expression, out);
  });
  return out;
}

const validationActions = ['Audit', 'Deny', 'Warn'];

function validateBinding(binding: KubeObject): StatusCause[] {
  const spec = o(binding.spec);
  const out: StatusCause[] = [];
  if (!spec.policyName) out.push(requiredValue('spec.policyName'));
  const actions = spec.validationActions;
  if (!Array.isArray(actions) || actions.length === 0) out.push(requiredValue('spec.validationActions', 'at least one validation action is required'));
  else {
    actions.forEach((a, i) => {
      if (!validationActions.includes(a as string)) out.push(unsupportedValue(`spec.validationActions[${i}]`, a, validationActions));
    });
    if (actions.includes('Deny') && actions.includes('Warn')) out.push(invalidValue('spec.validationActions', actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  validateRules('spec.matchResources.resourceRules', o(spec.matchResources).resourceRules, out);
  return out;
}

const clusterScoped = (plural: string, kind: string, status: boolean, validate: (obj: KubeObject) => StatusCause[]): ResourceType =>
  defineResource({
    group, plural, kind, namespaced: false, categories: ['api-extensions'], subresources: status ? ['status'] : [], statusSplit: status, table: createdAtTable,
    extra: { validate: (obj) => validate(obj) },
  });

export const policyBucket = `${group}/validatingadmissionpolicies`;
export const bindingBucket = `${group}/validatingadmissionpolicybindings`;

export const admissionPolicyResources: ResourceType[] = [
  clusterScoped('validatingadmissionpolicies', 'ValidatingAdmissionPolicy', true, validatePolicy),
  clusterScoped('validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', false, validateBinding),
];
