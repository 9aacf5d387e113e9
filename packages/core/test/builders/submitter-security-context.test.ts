// The submitter container we build runs under Pod Security's `restricted` level (issue 23): a namespace labelled
// pod-security.kubernetes.io/enforce=restricted refused every default submitter pod, and the RayJob stalled.
// The checks below are the container-level rules of `restricted` (v1.32), which leave the pod level free.
import { describe, expect, it } from 'vitest';
import { buildRayCluster, buildSubmitterJob, defaultDecisionSettings, submissionOptions, type Container } from '../../src/index.ts';
import { makeRayJob } from '../rayjob/fixtures.ts';

type SecurityContext = {
  privileged?: boolean; allowPrivilegeEscalation?: boolean; runAsNonRoot?: boolean; runAsUser?: number;
  capabilities?: { add?: string[]; drop?: string[] }; seccompProfile?: { type?: string };
};

/** What `restricted` refuses in a container that sets everything itself (no pod-level securityContext). */
function restrictedViolations(c: Container): string[] {
  const sc = ((c as { securityContext?: SecurityContext }).securityContext ?? {});
  const problems: string[] = [];
  if (sc.privileged === true) problems.push('privileged');
  if (sc.allowPrivilegeEscalation !== false) problems.push('allowPrivilegeEscalation != false');
  if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push('unrestricted capabilities (drop ALL)');
  if ((sc.capabilities?.add ?? []).some((cap) => cap !== 'NET_BIND_SERVICE')) problems.push('added capabilities');
  if (sc.runAsNonRoot !== true) problems.push('runAsNonRoot != true');
  if (sc.runAsUser === 0) problems.push('runAsUser=0');
  if (!['RuntimeDefault', 'Localhost'].includes(sc.seccompProfile?.type ?? '')) problems.push('seccompProfile');
  return problems;
}

const url = 'rayjob-sample-x7k2p-head-svc.default.svc.cluster.local:8265';

function k8sJobModeContainer(spec: Record<string, unknown> = {}): Container {
  const rayJob = makeRayJob({ spec });
  const options = submissionOptions(rayJob);
  if (!options.ok) throw new Error(options.error);
  const job = buildSubmitterJob({ rayJob, dashboardURL: url, jobId: 'id-1', clusterName: 'c', clusterSpec: rayJob.spec.rayClusterSpec, options: options.value, settings: defaultDecisionSettings });
  const container = job.spec?.template.spec?.containers?.[0];
  if (!container) throw new Error('the submitter Job has no container');
  return container;
}

function sidecarModeContainer(): Container {
  const rayJob = makeRayJob({ spec: { submissionMode: 'SidecarMode' } });
  const cluster = buildRayCluster(rayJob, 'cl', 'the-id', defaultDecisionSettings, { entrypoint: 'echo hi' });
  const container = cluster.spec?.headGroupSpec.template.spec?.containers?.at(-1);
  if (!container) throw new Error('the head pod has no sidecar');
  return container;
}

describe('our submitter container is Pod Security restricted', () => {
  it.each([
    { name: 'the default K8sJobMode submitter Job', container: () => k8sJobModeContainer() },
    { name: 'the SidecarMode submitter in the head pod', container: sidecarModeContainer },
  ])('$name', ({ container }) => {
    const c = container();
    expect(c.name).toBe('ray-job-submitter');
    expect(restrictedViolations(c)).toEqual([]);
    // The uid is the image's own USER, so the kubelet can verify runAsNonRoot for any image name.
    expect((c as { securityContext?: SecurityContext }).securityContext?.runAsUser).toBe(65532);
  });

  it('a user submitterPodTemplate is left as written (KubeRay adds nothing to it)', () => {
    const template = { spec: { restartPolicy: 'Never', containers: [{ name: 'mine', image: 'python:3.12' }] } };
    const c = k8sJobModeContainer({ submitterPodTemplate: template });
    expect((c as { securityContext?: unknown }).securityContext).toBeUndefined();
  });
});
