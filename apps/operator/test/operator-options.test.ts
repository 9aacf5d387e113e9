// Operator options the other files do not run with, each on a RayJob lifecycle: --use-kubernetes-proxy (the
// dashboard only through the API server's service proxy, as KubeRay does when the operator cannot reach pod
// networks) and DELETE_RAYJOB_CR_AFTER_JOB_FINISHES (the RayJob deletes itself after it finished). The
// least-privilege check counts their calls for the chart's `services/proxy` get and create and `rayjobs` delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from './support/api.ts';
import { createRayJob, rayJobManifest, startEnv, waitForDeployment, type Env } from './support/env.ts';
import { isOperatorCall } from './support/operator-calls.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv(['--use-kubernetes-proxy'], { envVars: { DELETE_RAYJOB_CR_AFTER_JOB_FINISHES: 'true' } });
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

describe('operator options', { timeout: 150_000 }, () => {
  it('--use-kubernetes-proxy: an HTTPMode RayJob is submitted and followed through the service proxy and completes', async () => {
    await createRayJob(env.url, rayJobManifest('via-proxy', { submissionMode: 'HTTPMode', entrypoint: 'echo through the proxy' }));
    const done = await waitForDeployment(env.url, 'via-proxy', 'Complete', 90_000);
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED' });
    const proxied = env.audit.filter((e) => isOperatorCall(e) && e.objectRef?.subresource === 'proxy' && e.objectRef.resource === 'services');
    expect(proxied.filter((e) => e.verb === 'create').map((e) => e.requestURI)).toEqual([expect.stringMatching(/^\/api\/v1\/namespaces\/default\/services\/[^/]+:dashboard\/proxy\/api\/jobs\/?$/)]);
    expect(proxied.some((e) => e.verb === 'get' && e.responseStatus.code === 200)).toBe(true);
  });

  it('DELETE_RAYJOB_CR_AFTER_JOB_FINISHES with shutdownAfterJobFinishes: the finished RayJob is deleted', async () => {
    await createRayJob(env.url, rayJobManifest('delete-self', { submissionMode: 'HTTPMode', entrypoint: 'echo bye', shutdownAfterJobFinishes: true }));
    await eventually('the RayJob to be deleted', async () => (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/delete-self')).status === 404, 90_000, 200);
    expect(env.audit.filter((e) => isOperatorCall(e) && e.verb === 'delete' && e.objectRef?.resource === 'rayjobs' && e.objectRef.name === 'delete-self').some((e) => e.responseStatus.code < 300)).toBe(true);
  });
});
