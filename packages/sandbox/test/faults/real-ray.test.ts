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
    const version = await waitFor('dashboard', async () => {
      try {
        const response = await fetch(`http://${ip}:8265/api/version`, { signal: AbortSignal.timeout(2000) });
        return response.ok ? (await response.json()) as { ray_version: string } : undefined;
      } catch {
        return undefined;
      }
    }, 240_000);
    expect(version.ray_version).toMatch(/^\d+\.\d+\.\d+/);
    // The head reports its pod IP as its node address: the submitter compares it with the head its attempt
    // started on (the operator records the head pod's IP), so a real head must not look like another one.
    type Summary = { data?: { summary: Array<{ raylet: { isHeadNode?: boolean; nodeManagerAddress?: string } }> } };
    const head = await waitFor('the head in /nodes', async () => {
      try {
        const response = await fetch(`http://${ip}:8265/nodes?view=summary`, { signal: AbortSignal.timeout(2000) });
        const body = response.ok ? (await response.json()) as Summary : undefined;
        return body?.data?.summary.find((n) => n.raylet.isHeadNode);
      } catch {
        return undefined;
      }
    }, 60_000);
    expect(head.raylet.nodeManagerAddress).toBe(ip);
  }, 300_000);
});
