// /openapi/v3 and /openapi/v2 as kubectl uses them: `kubectl explain` on CRD and built-in fields, an unknown
// kind answered "no matches for kind" (as by a real server), and schemas that follow the served kinds.
import { beforeAll, describe, expect, it } from 'vitest';
import { http, useHarness } from '../harness.ts';

const rayJobCrd = new URL('../../../core/crds/ray.io_rayjobs.yaml', import.meta.url).pathname;

const documentedCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.docs.rayjob.dev}
spec:
  group: docs.rayjob.dev
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          description: A gadget for OpenAPI tests.
          properties:
            spec:
              type: object
              description: What the gadget should be.
              properties:
                knobs:
                  type: integer
                  description: How many knobs the gadget has.
`;

const h = useHarness({ crds: [rayJobCrd] });
beforeAll(async () => {
  expect((await h.kubectl(['create', '-f', '-'], documentedCrd)).stderr).toBe('');
});

describe('kubectl explain', () => {
  it('kubectl explain rayjob.spec.submitterConfig prints the CRD field and its fields, with their docs', async () => {
    const out = await h.kubectl(['explain', 'rayjob.spec.submitterConfig']);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('KIND:       RayJob');
    expect(out.stdout).toMatch(/FIELD: submitterConfig <Object>\s+DESCRIPTION:\s+Settings of the submitter Job/);
    expect(out.stdout).toMatch(/backoffLimit\s+<integer>\s+Retries of the submitter Job/);
    expect(out.stdout).not.toContain('<no description>');
  });

  it.each([
    // The embedded Kubernetes types carry their full schema (issue 8): explain walks into them as into built-ins.
    ['rayjob.spec.submitterPodTemplate.spec', [/FIELD: spec <Object>/, /containers\s+<\[\]Object> -required-/, /restartPolicy\s+<string>/, /volumes\s+<\[\]Object>/]],
    ['rayjob.spec.submitterPodTemplate.spec.containers.resources', [/limits\s+<map\[string\]/, /requests\s+<map\[string\]/]],
    ['rayjob.spec.rayClusterSpec.headGroupSpec.template.spec.containers.securityContext', [/runAsNonRoot\s+<boolean>/, /capabilities\s+<Object>/]],
    ['rayjob.spec.rayClusterSpec.headGroupSpec.headService.spec', [/ports\s+<\[\]Object>/, /type\s+<string>/]],
  ])('kubectl explain %s shows the Kubernetes type\'s fields', async (path, expected) => {
    const out = await h.kubectl(['explain', path]);
    expect(out.stderr).toBe('');
    for (const line of expected) expect(out.stdout).toMatch(line);
  });

  it("prints a CRD's field docs", async () => {
    const out = await h.kubectl(['explain', 'gadget.spec.knobs']);
    expect(out.stdout).toContain('How many knobs the gadget has.');
    expect((await h.kubectl(['explain', 'gadget.spec'])).stdout).toContain('What the gadget should be.');
  });

  it.each([
    ['pod.spec.containers.ports', /containerPort\s+<integer>/],
    ['job.spec.template.spec.volumes.configMap', /name\s+<string>/],
    ['deployment.spec.strategy.rollingUpdate', /maxSurge\s+</],
    ['ingress.spec.rules.http.paths', /pathType\s+<string>/],
    ['pod.metadata.creationTimestamp', /<string>/],
  ])('built-in %s: fields from the k8s.io types (embedded structs inlined)', async (path, expected) => {
    const out = await h.kubectl(['explain', path]);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(expected);
  });
});

describe('client-side validation and documents', () => {
  it('an unknown kind gets "no matches for kind", as from a real server', async () => {
    const out = await h.kubectl(['create', '-f', '-'], 'apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: x}\n');
    expect(out.stderr).toContain('no matches for kind "Foo" in version "example.com/v1"');
  });

  it('the v3 document of a group version carries its kinds with their group-version-kind and patch merge keys', async () => {
    const index = (await http(h.server, 'GET', '/openapi/v3')).body;
    const url = index.paths['apis/ray.io/v1'].serverRelativeURL as string;
    const doc = (await http(h.server, 'GET', url)).body;
    expect(doc.components.schemas['io.ray.v1.RayJob']['x-kubernetes-group-version-kind']).toEqual([{ group: 'ray.io', version: 'v1', kind: 'RayJob' }]);
    const core = (await http(h.server, 'GET', index.paths['api/v1'].serverRelativeURL)).body;
    expect(core.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
  });

  it('a changed CRD schema changes its document hash (kubectl caches by it)', async () => {
    const hashOf = async (): Promise<string> => (await http(h.server, 'GET', '/openapi/v3')).body.paths['apis/docs.rayjob.dev/v1'].serverRelativeURL;
    const before = await hashOf();
    const patch = JSON.stringify([{ op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/dials', value: { type: 'string' } }]);
    expect((await h.kubectl(['patch', 'crd', 'gadgets.docs.rayjob.dev', '--type=json', `-p=${patch}`])).stderr).toBe('');
    expect(await hashOf()).not.toBe(before);
  });

  it('/openapi/v2 as JSON has every definition; the protobuf form answers with its content type', async () => {
    const v2 = await http(h.server, 'GET', '/openapi/v2', undefined, 'application/json', { Accept: 'application/json' });
    expect(v2.body.swagger).toBe('2.0');
    expect(v2.body.definitions['io.k8s.api.batch.v1.Job']['x-kubernetes-group-version-kind']).toEqual([{ group: 'batch', version: 'v1', kind: 'Job' }]);
    const proto = await fetch(`${h.server.url}/openapi/v2`, { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(proto.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  });
});
