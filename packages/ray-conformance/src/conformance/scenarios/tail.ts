/** The log tail WebSocket, with and without permessage-deflate. */
import { expect } from 'vitest';
import type { Scenario } from '../scenario.ts';

export const tailScenarios: Scenario[] = [
  {
    name: 'tail without compression replays the log and closes 1000 after the job ends, with no status frame',
    async run(ctx) {
      const sid = ctx.sid('tailed');
      await ctx.submit({ entrypoint: 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo line-$i; done; sleep 2; echo last', submission_id: sid });
      await ctx.waitForStatus(sid, (s) => s !== 'PENDING', 150_000);
      const tail = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 150_000 });
      const details = await ctx.job(sid);
      if (tail.kind !== 'closed') return { tail: tail.kind };
      const endedAt = Number(details?.end_time);
      return {
        closeCode: tail.code,
        reason: tail.reason,
        extensions: tail.extensions,
        statusAfterClose: details?.status,
        logs: ctx.logLines(tail.frames.map((f) => f.text).join('')),
        everyFrameAtMost10Lines: tail.frames.every((f) => f.text.split('\n').filter(Boolean).length <= 10),
        moreThanOneFrame: tail.frames.length > 1,
        closedAfterJobEnded: Number.isFinite(endedAt),
      };
    },
    check(o) {
      expect(o).toEqual({
        closeCode: 1000,
        reason: '',
        extensions: '',
        statusAfterClose: 'SUCCEEDED',
        logs: {
          ray: ['<log-time>\tINFO job_manager.py:583 -- Runtime env is setting up.',
            'Running entrypoint for job <sid:tailed>: for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo line-$i; done; sleep 2; echo last'],
          output: [...Array.from({ length: 12 }, (_, i) => `line-${i + 1}`), 'last'],
        },
        everyFrameAtMost10Lines: true,
        moreThanOneFrame: true,
        closedAfterJobEnded: true,
      });
    },
  },
  {
    name: 'tail offering permessage-deflate gets no frame and a 1000 close while the job still runs',
    async run(ctx) {
      const sid = ctx.sid('deflate');
      await ctx.submit({ entrypoint: 'echo compressed-away; sleep 20', submission_id: sid });
      await ctx.waitForStatus(sid, (s) => s === 'RUNNING', 150_000);
      const tail = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: true, timeoutMs: 30_000 });
      const statusAtClose = (await ctx.job(sid))?.status;
      await ctx.http(`/api/jobs/${sid}/stop`, { method: 'POST' });
      if (tail.kind !== 'closed') return { tail: tail.kind };
      return {
        closeCode: tail.code,
        negotiated: tail.extensions.includes('permessage-deflate'),
        frames: tail.frames.length,
        statusAtClose,
        closedWithin10s: tail.closedAtMs - tail.openedAtMs < 10_000,
      };
    },
    check(o) {
      expect(o).toEqual({ closeCode: 1000, negotiated: true, frames: 0, statusAtClose: 'RUNNING', closedWithin10s: true });
    },
  },
];
