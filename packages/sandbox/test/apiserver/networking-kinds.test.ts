// networking.k8s.io kinds KubeRay's samples and charts create (Ingress, IngressClass, NetworkPolicy) are served and
// stored as on a real cluster without an ingress controller or network plugin: kubectl applies them with strict
// validation by their k8s.io types, reads them back, lists them by short name, and refuses a misspelt field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const manifests = `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: dashboard}
spec:
  ingressClassName: nginx
  rules:
  - http:
      paths:
      - path: /ray
        pathType: Prefix
        backend: {service: {name: raycluster-head-svc, port: {number: 8265}}}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: head-only}
spec:
  podSelector: {matchLabels: {ray.io/node-type: head}}
  policyTypes: [Ingress]
  ingress:
  - from: [{podSelector: {matchLabels: {ray.io/node-type: worker}}}]
    ports: [{port: 6379, protocol: TCP}]
`;

describe('networking.k8s.io kinds', () => {
  it('Ingress, IngressClass and NetworkPolicy apply under strict validation and read back as written', async () => {
    const applied = await h.kubectl(['apply', '--validate=strict', '-f', '-'], manifests);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual(['ingressclass.networking.k8s.io/nginx created', 'ingress.networking.k8s.io/dashboard created', 'networkpolicy.networking.k8s.io/head-only created']);
    expect((await h.kubectl(['get', 'ing', 'dashboard', '-o', 'jsonpath={.spec.rules[0].http.paths[0].backend.service.port.number}'])).stdout).toBe('8265');
    expect((await h.kubectl(['get', 'netpol', 'head-only', '-o', 'jsonpath={.spec.ingress[0].ports[0].port}'])).stdout).toBe('6379');
    expect((await h.kubectl(['get', 'ingressclass', '-o', 'name'])).stdout).toBe('ingressclass.networking.k8s.io/nginx\n');
  });

  it('a misspelt field is refused by the kind\'s type, as kube-apiserver does', async () => {
    const bad = manifests.split('---\n')[2]?.replace('policyTypes', 'policyType').replace('head-only', 'typo') ?? '';
    const out = await h.kubectl(['apply', '--validate=strict', '-f', '-'], bad);
    expect(out.stderr).toContain('unknown field "spec.policyType"');
  });
});
