// ValidatingAdmissionPolicy + binding (admissionregistration.k8s.io/v1) as kube-apiserver 1.32 applies them: the
// chart's kind of policy confining the operator's ServiceAccount to `*-submitter-state` ConfigMaps carrying its
// label refuses it kube-system/x and lets it write its own; matchConditions, variables, messageExpression,
// reason, params, failurePolicy, Warn, and broken CEL refused at create.
import { beforeAll, describe, expect, it } from 'vitest';
import { http, useHarness, type Json } from '../harness.ts';

const h = useHarness();

const operator = 'system:serviceaccount:rayjob-system:rayjob-operator';
const apply = async (objects: Json[]): Promise<void> => {
  const r = await h.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  expect(r.stderr).toBe('');
};

const configMapPolicy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'rayjob-operator-configmaps' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['configmaps'] }] },
    matchConditions: [{ name: 'operator-only', expression: `request.userInfo.username == '${operator}'` }],
    variables: [{ name: 'target', expression: "request.operation == 'DELETE' ? oldObject : object" }],
    validations: [
      { expression: "request.name.endsWith('-submitter-state')", message: 'the rayjob operator may only write ConfigMaps named <rayjob>-submitter-state' },
      {
        // `in` before indexing: a missing key is an error in CEL (and failurePolicy Fail would refuse with that).
        expression: "has(variables.target.metadata.labels) && 'app.kubernetes.io/created-by' in variables.target.metadata.labels && variables.target.metadata.labels['app.kubernetes.io/created-by'] == 'rayjob-operator'",
        messageExpression: "'ConfigMap ' + request.namespace + '/' + request.name + ' lacks app.kubernetes.io/created-by=rayjob-operator'",
        reason: 'Forbidden',
      },
    ],
  },
};

describe('ValidatingAdmissionPolicy', () => {
  beforeAll(async () => {
    await apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rayjob-system' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'rayjob-operator', namespace: 'rayjob-system' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'rayjob-operator' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'create', 'patch', 'update', 'delete'] }] },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'rayjob-operator' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rayjob-operator' }, subjects: [{ kind: 'ServiceAccount', name: 'rayjob-operator', namespace: 'rayjob-system' }] },
      configMapPolicy,
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'rayjob-operator-configmaps' }, spec: { policyName: 'rayjob-operator-configmaps', validationActions: ['Deny'] } },
    ]);
    expect((await h.kubectl(['create', 'configmap', '-n', 'kube-system', 'x', '--from-literal=k=v'])).code).toBe(0);
  });

  it("refuses the operator's ServiceAccount a patch of kube-system/x with the real 422 shape, and kubectl prints it", async () => {
    const patch = await h.kubectl(['patch', 'configmap', '-n', 'kube-system', 'x', `--as=${operator}`, '--type=merge', '-p', '{"data":{"k":"pwned"}}']);
    expect(patch.code).toBe(1);
    const denial = "ValidatingAdmissionPolicy 'rayjob-operator-configmaps' with binding 'rayjob-operator-configmaps' denied request: the rayjob operator may only write ConfigMaps named <rayjob>-submitter-state";
    expect(patch.stderr.trim()).toBe(`The configmaps "x" is invalid: : ${denial}`);
    const raw = await http(h.server, 'PATCH', '/api/v1/namespaces/kube-system/configmaps/x', { data: { k: 'pwned' } }, 'application/merge-patch+json', { 'Impersonate-User': operator });
    expect(raw.status).toBe(422);
    expect(raw.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "x" is forbidden: ${denial}`,
      reason: 'Invalid',
      details: { name: 'x', kind: 'configmaps', causes: [{ message: denial }] },
      code: 422,
    });
    expect((await http(h.server, 'GET', '/api/v1/namespaces/kube-system/configmaps/x')).body.data).toEqual({ k: 'v' });
    const del = await h.kubectl(['delete', 'configmap', '-n', 'kube-system', 'x', `--as=${operator}`]);
    expect(del.stderr).toContain(denial);
    // The matchCondition leaves everyone else alone.
    expect((await h.kubectl(['patch', 'configmap', '-n', 'kube-system', 'x', '--type=merge', '-p', '{"data":{"k":"admin"}}'])).code).toBe(0);
  });

  it('lets the operator create, patch and delete its own labelled submitter-state ConfigMap; an unlabelled one is Forbidden by messageExpression', async () => {
    const own = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rj-submitter-state', namespace: 'default', labels: { 'app.kubernetes.io/created-by': 'rayjob-operator' } }, data: { a: '1' } };
    expect((await h.kubectl(['create', '-f', '-', `--as=${operator}`], JSON.stringify(own))).code).toBe(0);
    expect((await h.kubectl(['patch', 'configmap', '-n', 'default', 'rj-submitter-state', `--as=${operator}`, '--type=merge', '-p', '{"data":{"a":"2"}}'])).code).toBe(0);
    const unlabelled = await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'other-submitter-state' } }, 'application/json', { 'Impersonate-User': operator });
    expect(unlabelled.status).toBe(403);
    expect(unlabelled.body).toMatchObject({
      reason: 'Forbidden',
      message: "configmaps \"other-submitter-state\" is forbidden: ValidatingAdmissionPolicy 'rayjob-operator-configmaps' with binding 'rayjob-operator-configmaps' denied request: ConfigMap default/other-submitter-state lacks app.kubernetes.io/created-by=rayjob-operator",
    });
    const dropLabel = await h.kubectl(['label', 'configmap', '-n', 'default', 'rj-submitter-state', 'app.kubernetes.io/created-by-', `--as=${operator}`]);
    expect(dropLabel.stderr).toContain('lacks app.kubernetes.io/created-by=rayjob-operator');
    expect((await h.kubectl(['delete', 'configmap', '-n', 'default', 'rj-submitter-state', `--as=${operator}`])).code).toBe(0);
  });

  it('binding matchResources narrows by namespace; Warn answers with a warning instead of refusing', async () => {
    await apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vap-team', labels: { team: 'a' } } },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'replicas' },
        spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] }, validations: [{ expression: 'object.spec.replicas <= 2' }] },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replicas-team-a' }, spec: { policyName: 'replicas', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { team: 'a' } } } } },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replicas-default' }, spec: { policyName: 'replicas', validationActions: ['Warn'], matchResources: { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] } } } },
    ]);
    const refused = await h.kubectl(['create', 'deployment', '-n', 'vap-team', 'web', '--image=busybox', '--replicas=3']);
    expect(refused.stderr).toContain("ValidatingAdmissionPolicy 'replicas' with binding 'replicas-team-a' denied request: failed expression: object.spec.replicas <= 2");
    const warned = await h.kubectl(['create', 'deployment', '-n', 'default', 'web', '--image=busybox', '--replicas=3']);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain("Warning: Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas-default': failed expression: object.spec.replicas <= 2");
  });

  it('params from a ConfigMap (paramKind/paramRef), parameterNotFoundAction Deny, and failurePolicy on an erroring expression', async () => {
    await apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vap-params' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'vap-params' }, data: { maxKeys: '1' } },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'secret-size' },
        spec: {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }] },
          validations: [{ expression: 'size(object.data) <= int(params.data.maxKeys)', messageExpression: "'at most ' + params.data.maxKeys + ' keys'" }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'secret-size' }, spec: { policyName: 'secret-size', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } } },
    ]);
    expect((await h.kubectl(['create', 'secret', 'generic', '-n', 'vap-params', 'one', '--from-literal=a=1'])).code).toBe(0);
    expect((await h.kubectl(['create', 'secret', 'generic', '-n', 'vap-params', 'two', '--from-literal=a=1', '--from-literal=b=2'])).stderr).toContain("denied request: at most 1 keys");
    expect((await h.kubectl(['create', 'secret', 'generic', '-n', 'default', 'elsewhere', '--from-literal=a=1'])).stderr).toContain("ValidatingAdmissionPolicy 'secret-size' with binding 'secret-size' denied request: no params found for policy binding with `Deny` parameterNotFoundAction");

    const erroring = (name: string, failurePolicy: string): Json => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: { failurePolicy, matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['services'] }] }, validations: [{ expression: 'object.spec.missing == 1' }] },
    });
    await apply([erroring('ignore-errors', 'Ignore'), { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'ignore-errors' }, spec: { policyName: 'ignore-errors', validationActions: ['Deny'] } }]);
    expect((await h.kubectl(['create', 'service', 'clusterip', 'a', '--tcp=80:80'])).code).toBe(0);
    await apply([erroring('fail-errors', 'Fail'), { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'fail-errors' }, spec: { policyName: 'fail-errors', validationActions: ['Deny'] } }]);
    expect((await h.kubectl(['create', 'service', 'clusterip', 'b', '--tcp=80:80'])).stderr).toContain("ValidatingAdmissionPolicy 'fail-errors' with binding 'fail-errors' denied request: expression 'object.spec.missing == 1' resulted in error: no such key: missing");
  });

  it('refuses a policy whose CEL does not compile or that lacks matchConstraints, and a binding without validationActions', async () => {
    const bad = await http(h.server, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      metadata: { name: 'broken' },
      spec: { validations: [{ expression: 'object.spec.replicas <=' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes.map((c: Json) => c.field)).toEqual(['spec.matchConstraints', 'spec.validations[0].expression']);
    const binding = await http(h.server, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', { metadata: { name: 'b' }, spec: { policyName: 'x' } });
    expect(binding.status).toBe(422);
    expect(binding.body.message).toBe('ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "b" is invalid: spec.validationActions: Required value: at least one validation action is required');
  });
});
