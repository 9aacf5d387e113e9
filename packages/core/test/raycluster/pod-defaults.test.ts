// KubeRay's operator configuration file (`--config`): sidecars, default env, default labels and annotations
// added to every Ray Pod, the CR's own values winning.
import { describe, expect, it } from 'vitest';
import { buildHeadPod, buildWorkerPod, type Container, type RayClusterSettings, type RayPodDefaults } from '../../src/index.ts';
import { sampleCluster, settings } from './fixtures.ts';

const defaults: RayPodDefaults = {
  headSidecarContainers: [{ name: 'head-logs', image: 'fluent/fluent-bit:3' }],
  workerSidecarContainers: [{ name: 'worker-logs', image: 'busybox' }],
  defaultContainerEnvs: [{ name: 'RAY_DEDUP_LOGS', value: '0' }, { name: 'MINE', value: 'default' }],
  defaultPodAnnotations: { team: 'ml', note: 'default' },
  defaultPodLabels: { 'cost-center': '42', owner: 'default' },
};
const withDefaults: RayClusterSettings = { ...settings, podDefaults: defaults };

function cluster() {
  const c = sampleCluster();
  for (const template of [c.spec.headGroupSpec.template, c.spec.workerGroupSpecs![0]!.template]) {
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), owner: 'cr' }, annotations: { note: 'cr' } };
    const ray = template.spec!.containers![0]!;
    ray.env = [...(ray.env ?? []), { name: 'MINE', value: 'cr' }];
  }
  return c;
}
const names = (containers: Container[] | undefined) => (containers ?? []).map((c) => c.name);
const env = (c: Container | undefined) => Object.fromEntries((c?.env ?? []).map((e) => [e.name, e.value]));

describe('operator configuration pod defaults', () => {
  it.each([
    { role: 'head', build: (s: RayClusterSettings) => buildHeadPod(cluster(), s, { specHash: 'h' }), sidecar: 'head-logs' },
    { role: 'worker', build: (s: RayClusterSettings) => buildWorkerPod(cluster(), cluster().spec.workerGroupSpecs![0]!, s, 0), sidecar: 'worker-logs' },
  ])('$role: its sidecar appended, env/labels/annotations added only where the CR has none', ({ build, sidecar }) => {
    const plain = build(settings);
    const pod = build(withDefaults);
    expect(names(pod.spec?.containers)).toEqual([...names(plain.spec?.containers), sidecar]);
    expect(env(pod.spec?.containers[0])).toMatchObject({ RAY_DEDUP_LOGS: '0', MINE: 'cr' });
    expect(pod.metadata.labels).toMatchObject({ 'cost-center': '42', owner: 'cr' });
    expect(pod.metadata.annotations).toMatchObject({ team: 'ml', note: 'cr' });
    // KubeRay's own labels still win over a default of the same key.
    expect(pod.metadata.labels?.['ray.io/cluster']).toBe(plain.metadata.labels?.['ray.io/cluster']);
  });

  it('without a configuration file the Pods are unchanged', () => {
    const c = cluster();
    expect(buildHeadPod(c, { ...settings, podDefaults: { headSidecarContainers: [], workerSidecarContainers: [], defaultContainerEnvs: [], defaultPodAnnotations: {}, defaultPodLabels: {} } }, { specHash: 'h' }))
      .toEqual(buildHeadPod(c, settings, { specHash: 'h' }));
  });
});
