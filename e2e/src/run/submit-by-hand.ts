// What an InteractiveMode user does once the RayJob is Waiting: submit the job to the head's dashboard
// (`ray job submit` through a port-forward; here through the API server's service proxy), then hand its
// submission ID to the RayJob with `kubectl patch rayjob --type merge -p '{"spec":{"jobId":"..."}}'`.
import type { Driver } from '../drivers/types.ts';
import { stepsEntrypoint } from '../scenario/manifests.ts';
import type { RayJobShape } from '../scenario/types.ts';

export async function submitByHand(driver: Driver, namespace: string, rayJob: string, cluster: string, shape: RayJobShape): Promise<string> {
  if (cluster === '') throw new Error(`submit by hand: the RayJob ${namespace}/${rayJob} has no RayCluster yet`);
  const jobId = `${rayJob}-by-hand`;
  const answer = await driver.dashboardPost(namespace, `${cluster}-head-svc`, '/api/jobs/', { entrypoint: stepsEntrypoint(shape), submission_id: jobId });
  if (answer.status !== 200) throw new Error(`submit by hand: POST /api/jobs/ answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  await driver.mergePatch('rayjobs', namespace, rayJob, { spec: { jobId } });
  return jobId;
}
