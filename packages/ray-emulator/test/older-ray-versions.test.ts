import { describe, expect, it } from 'vitest';
import { emulator } from './support/emulator.ts';
import { getJson, raw, submit } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

async function failedJob(rayVersion: string): Promise<Record<string, unknown>> {
  const e = await emulator({ rayVersion });
  await submit(e.url, { entrypoint: 'echo oops; exit 4', submission_id: 'old' });
  return waitFor(async () => {
    const { json } = await getJson(e.url, '/api/jobs/old');
    return json?.status === 'FAILED' ? json : undefined;
  }, { what: 'FAILED' });
}

describe('pretending an older Ray', () => {
  it.each([
    ['2.58.0', 'JOB_ENTRYPOINT_COMMAND_ERROR'],
    ['2.50.0', 'JOB_ENTRYPOINT_COMMAND_ERROR'],
    ['2.49.1', null],
    ['2.9.3', null],
  ])('Ray %s reports error_type %s for a failed entrypoint', async (rayVersion, errorType) => {
    const job = await failedJob(rayVersion);
    expect(job.error_type).toBe(errorType);
    expect(job.driver_exit_code).toBe(4);
    expect(job.message).toMatch(/^Job entrypoint command failed with exit code 4, last available logs/);
  });

  it('Ray 2.7 has no driver_exit_code key and the older failure text', async () => {
    const job = await failedJob('2.7.1');
    expect(Object.keys(job)).toHaveLength(14);
    expect('driver_exit_code' in job).toBe(false);
    expect(job.message).toMatch(/^Job failed due to an application error, last available logs \(truncated to 20,000 chars\):\n/);
  });

  it.each([
    ['2.58.0', 'DELETE', 405],
    ['2.53.0', 'DELETE', 404],
    ['2.53.0', 'POST', 405],
  ])('Ray %s answers a browser-like %s with %i', async (rayVersion, method, status) => {
    const e = await emulator({ rayVersion });
    const path = method === 'POST' ? '/api/jobs/' : '/api/jobs/ghost';
    const headers = { 'sec-fetch-mode': 'cors' };
    const answer = await raw(e.url, method, path, method === 'POST' ? { headers, body: '{"entrypoint":"true"}' } : { headers });
    expect(answer.status).toBe(status);
  });
});
