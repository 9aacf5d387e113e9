/** POST /api/jobs/: acceptance, duplicates, request validation, paths. */
import { expect } from 'vitest';
import type { Scenario } from '../scenario.ts';

export const submitScenarios: Scenario[] = [
  {
    name: 'submit is accepted and answers both ids as the submission id',
    async run(ctx) {
      const sid = ctx.sid('ok');
      return { submit: await ctx.observe('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo ok', submission_id: sid } }) };
    },
    check(o) {
      expect(o.submit).toEqual({ status: 200, type: 'application/json', json: { job_id: '<sid:ok>', submission_id: '<sid:ok>' } });
    },
  },
  {
    name: 'a duplicate submission_id answers 500 with the agent error wrapped',
    async run(ctx) {
      const sid = ctx.sid('dup');
      const first = await ctx.observe('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo one', submission_id: sid } });
      const second = await ctx.observe('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo two', submission_id: sid } });
      return { first, second };
    },
    check(o) {
      expect(o.second).toEqual({
        status: 500,
        type: 'text/plain',
        traceback: [
          'RuntimeError: Request failed with status code 400: Traceback (most recent call last):',
          'ValueError: Job with submission_id <sid:dup> already exists. Please use a different submission_id.',
        ],
      });
    },
  },
  {
    name: 'request validation answers 400 with the Python error line',
    async run(ctx) {
      const cases: Record<string, unknown> = {
        unknownKey: { entrypoint: 'echo x', bogus: 1 },
        retryPolicyUnknownIn258: { entrypoint: 'echo x', retry_policy: {} },
        missingEntrypoint: { submission_id: ctx.sid('noentry') },
        cpusNotANumber: { entrypoint: 'echo x', entrypoint_num_cpus: 'a' },
        metadataValueNotString: { entrypoint: 'echo x', metadata: { a: 1 } },
        memoryNotInteger: { entrypoint: 'echo x', entrypoint_memory: 1.5 },
      };
      const out: Record<string, unknown> = {};
      for (const [name, body] of Object.entries(cases)) out[name] = await ctx.observe('/api/jobs/', { method: 'POST', body });
      return out;
    },
    check(o) {
      const err = (line: string) => ({ status: 400, type: 'text/plain', traceback: [line] });
      expect(o).toEqual({
        unknownKey: err("TypeError: JobSubmitRequest.__init__() got an unexpected keyword argument 'bogus'"),
        retryPolicyUnknownIn258: err("TypeError: JobSubmitRequest.__init__() got an unexpected keyword argument 'retry_policy'"),
        missingEntrypoint: err("TypeError: JobSubmitRequest.__init__() missing 1 required positional argument: 'entrypoint'"),
        cpusNotANumber: err("TypeError: entrypoint_num_cpus must be a number, got <class 'str'>"),
        metadataValueNotString: err("TypeError: metadata values must be strings, got <class 'int'>"),
        memoryNotInteger: err("TypeError: entrypoint_memory must be an integer, got <class 'float'>"),
      });
    },
  },
  {
    name: 'null-valued keys are ignored and an empty submission_id gets a generated one',
    async run(ctx) {
      const sid = ctx.sid('nulls');
      return {
        nulls: await ctx.observe('/api/jobs/', {
          method: 'POST',
          body: { entrypoint: 'echo x', submission_id: sid, runtime_env: null, metadata: null, entrypoint_num_cpus: null },
        }),
        empty: await ctx.observe('/api/jobs/', { method: 'POST', body: { entrypoint: 'echo x', submission_id: '' } }),
      };
    },
    check(o) {
      expect(o.nulls).toEqual({ status: 200, type: 'application/json', json: { job_id: '<sid:nulls>', submission_id: '<sid:nulls>' } });
      expect(o.empty).toEqual({
        status: 200,
        type: 'application/json',
        json: { job_id: 'raysubmit_<generated>', submission_id: 'raysubmit_<generated>' },
      });
    },
  },
  {
    name: 'a body that is not JSON gets aiohttp’s bare 500',
    async run(ctx) {
      return { notJson: await ctx.observe('/api/jobs/', { method: 'POST', body: 'notjson', headers: { 'content-type': 'application/json' } }) };
    },
    check(o) {
      expect(o.notJson).toEqual({ status: 500, type: 'text/plain', text: '500 Internal Server Error\n\nServer got itself in trouble' });
    },
  },
  {
    name: 'paths are exact: no slash on the collection and a trailing slash on a job are 404',
    async run(ctx) {
      return {
        postNoSlash: await ctx.observe('/api/jobs', { method: 'POST', body: { entrypoint: 'echo x' } }),
        getTrailingSlash: await ctx.observe('/api/jobs/anything/'),
        head: await ctx.http('/api/jobs/', { method: 'HEAD' }).then((r) => (r.kind === 'response' ? r.status : r.code)),
      };
    },
    check(o) {
      const notFound = { status: 404, type: 'text/plain', text: '404: Not Found' };
      expect(o).toEqual({ postNoSlash: notFound, getTrailingSlash: notFound, head: 200 });
    },
  },
];
