import { eventually as awaitCondition } from '@rayjob/test-support';

// Await a condition with a bound: @rayjob/test-support's eventually, in this package's argument order.
export const eventually = <T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000, what = 'condition'): Promise<T> =>
  awaitCondition(check, { what, withinMs: ms, everyMs: 10 });
