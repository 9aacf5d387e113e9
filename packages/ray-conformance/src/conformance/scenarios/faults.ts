/**
 * Faults, each injected the same way on both targets. Keys starting with `_` are timings
 * and facts worth printing but too variable to compare (see `comparable`).
 */
import { expect } from 'vitest';
import { pollUntil, sleep } from '../../probe/deadline.ts';
import { jsonBody } from '../../probe/http.ts';
import { isTerminalStatus, type ScenarioContext } from '../context.ts';
import { observeHttp, type HttpObservation } from '../normalize.ts';
import { comparable, type Scenario } from '../scenario.ts';

const aiohttp500 = { status: 500, type: 'text/plain', text: '500 Internal Server Error\n\nServer got itself in trouble' };

async function runningJob(ctx: ScenarioContext, label: string, entrypoint: string): Promise<string> {
  const sid = ctx.sid(label);
  await ctx.submit({ entrypoint, submission_id: sid });
  await ctx.waitForStatus(sid, (s) => s === 'RUNNING', 150_000);
  return sid;
}

type NodeSummary = { data: { summary: Array<{ raylet: { nodeId: string; state: string } }> } };

export const jobHeadRestartScenario: Scenario = {
  name: 'JobHead dies and is restarted: open tails close 1000, calls get aiohttp 500 meanwhile, the job is unaffected',
  async run(ctx) {
    const sid = await runningJob(ctx, 'survivor', 'echo started; sleep 15; echo finished');
    let faultAt = 0;
    let faultDone = false;
    let tailClosedAt = 0;
    const tail = ctx.tail(`/api/jobs/${sid}/logs/tail`, {
      deflate: false,
      timeoutMs: 60_000,
      onOpen: () => {
        // Let the stream establish (first frame after ~1-2 s) before the fault.
        void sleep(2_500).then(async () => {
          faultAt = Date.now();
          await ctx.target.faults.restartJobHead();
          faultDone = true;
        });
      },
    }).then((r) => ((tailClosedAt = Date.now()), r));
    // Poll through the outage; every answer that is not a 200 is recorded (distinct).
    const outage = new Map<string, HttpObservation>();
    await pollUntil(async () => (faultDone ? true : undefined), { what: 'the fault to be injected', timeoutMs: 30_000, intervalMs: 50 });
    const recovered = await pollUntil(
      async () => {
        const res = await ctx.http(`/api/jobs/${sid}`, { timeoutMs: 20_000 });
        if (res.kind === 'response' && res.status === 200) return JSON.parse(res.body) as { status: string };
        const seen = observeHttp(res, ctx.subs);
        outage.set(JSON.stringify(seen), seen);
        return undefined;
      },
      { what: 'JobHead to answer again', timeoutMs: 60_000, intervalMs: 100 },
    );
    const recoveredAfterMs = Date.now() - faultAt;
    const closed = await tail;
    const done = await ctx.waitForStatus(sid, isTerminalStatus, 150_000);
    const logs = jsonBody(await ctx.http(`/api/jobs/${sid}/logs`)) as { logs: string };
    return {
      tail: closed.kind === 'closed' ? { code: closed.code, reason: closed.reason } : closed.kind,
      // The job sleeps 15 s; a close this soon after the fault is the restart's doing.
      tailClosedWithin8sOfFault: tailClosedAt - faultAt < 8_000,
      // During the restart a call gets aiohttp's 500, or is held until the new JobHead answers
      // (observed both; a hold past 20 s shows up as a client TIMEOUT).
      outageAnswersAreAiohttp500: [...outage.values()].every((o) => JSON.stringify(o) === JSON.stringify(aiohttp500)),
      statusRightAfter: recovered.status,
      finalStatus: done.status,
      logsHaveBothLines: logs.logs.includes('started') && logs.logs.includes('finished'),
      _outageAnswers: [...outage.values()],
      _recoveredAfterMs: recoveredAfterMs,
    };
  },
  check(o) {
    expect(comparable(o)).toEqual({
      tail: { code: 1000, reason: '' },
      tailClosedWithin8sOfFault: true,
      outageAnswersAreAiohttp500: true,
      statusRightAfter: 'RUNNING',
      finalStatus: 'SUCCEEDED',
      logsHaveBothLines: true,
    });
  },
};

export const agentKilledScenario: Scenario = {
  name: 'the head agent dies: the job stays RUNNING, the node turns DEAD, agent-routed calls fail with 500',
  async run(ctx) {
    const sid = await runningJob(ctx, 'orphaned', 'echo running; sleep 40');
    const killedAt = Date.now();
    await ctx.target.faults.killAgent();
    const deadAfterMs = await pollUntil(
      async () => {
        const body = jsonBody(await ctx.http('/nodes?view=summary')) as NodeSummary;
        return body.data.summary.every((n) => n.raylet.state === 'DEAD') ? Date.now() - killedAt : undefined;
      },
      { what: 'the head node to be DEAD', timeoutMs: 90_000, intervalMs: 500 },
    );
    await sleep(Math.max(0, 12_000 - (Date.now() - killedAt)));
    const newSid = ctx.sid('afterkill');
    const submit = await ctx.http('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo x', submission_id: newSid } });
    return {
      statusAfter12s: (await ctx.job(sid))?.status,
      gcsHealthz: await ctx.observe('/api/gcs_healthz'),
      submit: observeHttp(submit, ctx.subs),
      // The whole body's structure (chained exceptions) for FINDINGS.md, paths elided.
      _submitBodyShape: submit.kind === 'response' ? submit.body.split('\n').filter((l) => !l.startsWith(' ')) : submit.code,
      stop: await ctx.observe(`/api/jobs/${sid}/stop`, { method: 'POST' }),
      logs: await ctx.observe(`/api/jobs/${sid}/logs`),
      _nodeDeadAfterMs: deadAfterMs,
    };
  },
  check(o) {
    const c = comparable(o) as Record<string, unknown>;
    expect(c.statusAfter12s).toBe('RUNNING');
    expect(c.gcsHealthz).toEqual({ status: 200, type: 'application/text', text: 'success' });
    for (const call of ['submit', 'stop', 'logs']) expect(c[call], call).toMatchObject({ status: 500 });
  },
};

export const dashboardKilledScenario: Scenario = {
  name: 'the dashboard dies: open tails end 1006 without a close frame, the port refuses connections',
  async run(ctx) {
    const sid = await runningJob(ctx, 'cutoff', 'echo running; sleep 40');
    let stopped: Promise<void> | undefined;
    const tail = ctx.tail(`/api/jobs/${sid}/logs/tail`, {
      deflate: false,
      timeoutMs: 60_000,
      onOpen: () => void (stopped = sleep(2_500).then(() => ctx.target.faults.stopDashboard())),
    });
    const closed = await tail;
    // The port is asked once the dashboard is dead (its processes gone), not while it is dying.
    await stopped;
    return {
      tail: closed.kind === 'closed' ? { code: closed.code, sawOutput: closed.frames.some((f) => f.text.includes('running')) } : closed.kind,
      get: await ctx.observe(`/api/jobs/${sid}`),
    };
  },
  check(o) {
    expect(comparable(o)).toEqual({ tail: { code: 1006, sawOutput: true }, get: { connection: 'ECONNREFUSED' } });
  },
};
