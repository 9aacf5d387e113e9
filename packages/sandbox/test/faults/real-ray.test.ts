// A real Ray head in a sandbox pod (its own network namespace). Runs where the real-Ray tier is provisioned
// (tools/ray/provision.sh: $RAYJOB_RAY_VENV, default /opt/rayjob-ray-venv) or where RAYJOB_REAL_RAY_BIN names a
// Ray installation's bin directory; elsewhere it reports itself skipped.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realRayImage } from '../../src/images/ray-image.ts';
import { createPod, getPod, startHarness, testImages, waitFor } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

const rayBin = process.env.RAYJOB_REAL_RAY_BIN ?? `${process.env.RAYJOB_RAY_VENV ?? '/opt/rayjob-ray-venv'}/bin`;
const available = rayBin !== '' && existsSync(`${rayBin}/ray`);

describe.skipIf(!available)(`real Ray head in a pod (${rayBin})`, () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ images: { ...testImages, 'rayproject/ray': realRayImage({ rayBin }) } }); });
  afterAll(async () => { await h?.stop(); });

  it('runs KubeRay-style `bash -lc "ray start --head ... --block"` and serves the dashboard on the pod IP, reporting the pod IP as the head\'s node address', async () => {
    await createPod(h.client, { metadata: { name: 'real-head' }, spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0',
      command: ['/bin/bash', '-lc', '--'], args: ['ulimit -n 65536; ray start --head --dashboard-host=0.0.0.0 --num-cpus=1 --disable-usage-stats --include-dashboard=true --block'] }] } });
    const ip = await waitFor('pod IP', async () => (await getPod(h.client, 'real-head'))?.status?.podIP || undefined);
    // One bound for the dashboard and the head's raylet in /nodes: on a loaded CI machine the raylet can abort
    // after the dashboard is up (it waits ~15 s for the DashboardAgent, not configurable), `ray start --block`
    // exits and the container restarts behind the Ray start lock. The head is up once both answer, whichever
    // container run that takes; a bound per step let a restart between them fail the test.
    type Summary = { data?: { summary: Array<{ raylet: { isHeadNode?: boolean; nodeManagerAddress?: string } }> } };
    const getJson = async <T>(path: string): Promise<T | undefined> => {
      try {
        const response = await fetch(`http://${ip}:8265${path}`, { signal: AbortSignal.timeout(2000) });
        return response.ok ? (await response.json()) as T : undefined;
      } catch {
        return undefined;
      }
    };
    const up = await waitFor('the dashboard and the head in /nodes', async () => {
      const version = await getJson<{ ray_version: string }>('/api/version');
      const head = version && (await getJson<Summary>('/nodes?view=summary'))?.data?.summary.find((n) => n.raylet.isHeadNode);
      return version && head ? { version, head } : undefined;
    }, 360_000);
    expect(up.version.ray_version).toMatch(/^\d+\.\d+\.\d+/);
    // The head reports its pod IP as its node address: the submitter compares it with the head its attempt
    // started on (the operator records the head pod's IP), so a real head must not look like another one.
    expect(up.head.raylet.nodeManagerAddress).toBe(ip);
  }, 420_000);
});
