// The two pieces of pure logic the contract leans on, with an injected clock: the replay-skipping printer
// and the driver-liveness count.
import type { NodeLiveness, RayFailure } from '@rayjob/ray-client';
import { describe, expect, it } from 'vitest';
import { emptyKnowledge, finalText, outcome, signalNotice, type JobKnowledge } from '../src/exit.ts';
import { createLogPrinter } from '../src/run/follow-logs.ts';
import { unhealthyReason } from '../src/run/unhealthy-reason.ts';
import { createDriverWatch } from '../src/run/watch-driver.ts';

describe('the log printer prints every byte of the job log exactly once', () => {
  it.each([
    { name: 'one connection', connections: [['a\n', 'b\n']], complete: 'a\nb\n', printed: 'a\nb\n' },
    { name: 'a reconnect replays from the start', connections: [['a\n', 'b\n'], ['a\n', 'b\n', 'c\n']], complete: undefined, printed: 'a\nb\nc\n' },
    { name: 'replay chunked differently', connections: [['a\nb', '\nc'], ['a\nb\nc\nd\n']], complete: undefined, printed: 'a\nb\nc\nd\n' },
    { name: 'a reconnect that has not caught up yet', connections: [['a\nb\nc\n'], ['a\n'], ['a\nb\nc\nd\n']], complete: undefined, printed: 'a\nb\nc\nd\n' },
    { name: 'the last chunk never arrived', connections: [['a\n', 'b\n']], complete: 'a\nb\nlast\n', printed: 'a\nb\nlast\n' },
    { name: 'non-ASCII counted in bytes', connections: [['ü€\n'], ['ü€\n', 'ß\n']], complete: 'ü€\nß\nend', printed: 'ü€\nß\nend' },
    { name: 'complete adds nothing when all arrived', connections: [['x\n']], complete: 'x\n', printed: 'x\n' },
  ])('$name', ({ connections, complete, printed }) => {
    let out = '';
    const printer = createLogPrinter((t) => (out += t));
    for (const chunks of connections) {
      printer.newConnection();
      for (const chunk of chunks) printer.onChunk(chunk);
    }
    if (complete !== undefined) printer.complete(complete);
    expect(out).toBe(printed);
    expect(printer.printedBytes()).toBe(Buffer.byteLength(printed));
  });
});

describe('the driver watch counts only conclusive DEAD or missing answers while RUNNING', () => {
  const alive: NodeLiveness = { kind: 'alive' };
  const dead: NodeLiveness = { kind: 'dead' };
  const missing: NodeLiveness = { kind: 'missing' };
  const unsure: NodeLiveness = { kind: 'inconclusive', reason: 'HTTP 500 from /nodes' };
  const running = { status: 'RUNNING' as const, driver_node_id: 'n1' };
  type Step = [at: number, job: { status: 'RUNNING' | 'PENDING'; driver_node_id: string | null }, liveness: NodeLiveness | undefined, expected: 'ok' | 'lost'];
  it.each<{ name: string; steps: Step[] }>([
    { name: 'DEAD for the whole bound is lost', steps: [[0, running, dead, 'ok'], [500, running, dead, 'ok'], [1000, running, dead, 'lost']] },
    { name: 'missing counts like DEAD', steps: [[0, running, missing, 'ok'], [1000, running, missing, 'lost']] },
    { name: 'ALIVE in between resets', steps: [[0, running, dead, 'ok'], [600, running, alive, 'ok'], [1200, running, dead, 'ok'], [2100, running, dead, 'ok'], [2200, running, dead, 'lost']] },
    { name: 'inconclusive never counts', steps: [[0, running, unsure, 'ok'], [5000, running, unsure, 'ok']] },
    { name: 'inconclusive does not reset a DEAD streak', steps: [[0, running, dead, 'ok'], [500, running, unsure, 'ok'], [1000, running, dead, 'lost']] },
    { name: 'not RUNNING resets', steps: [[0, running, dead, 'ok'], [900, { status: 'PENDING', driver_node_id: null }, undefined, 'ok'], [1500, running, dead, 'ok']] },
  ])('$name', ({ steps }) => {
    const watch = createDriverWatch(1000);
    for (const [at, job, liveness, expected] of steps) expect(watch.observe(job, liveness, at)).toBe(expected);
  });
});

describe('the final word never contradicts itself', () => {
  const knowing = (over: Partial<JobKnowledge>): JobKnowledge => ({ ...emptyKnowledge('j1'), ...over });
  it.each([
    { name: 'head lost after RUNNING: Ray\'s stale message is labelled', k: { seen: true, lastStatus: 'RUNNING' as const, lastMessage: 'Job is currently running.' }, o: outcome('HeadLost', 'the job is no longer known to the dashboard (the head was lost): Job j1 does not exist'), text: 'the job is no longer known to the dashboard (the head was lost): Job j1 does not exist. When last seen, Ray reported RUNNING: Job is currently running.' },
    { name: 'FAILED: Ray\'s message is the reason', k: { seen: true, lastStatus: 'FAILED' as const, lastMessage: 'exit code 3' }, o: outcome('JobFailed', 'the job failed'), text: 'the job failed: exit code 3' },
    { name: 'nothing from Ray: the detail alone', k: {}, o: outcome('Unreachable', 'GCS did not become healthy'), text: 'GCS did not become healthy' },
  ])('$name', ({ k, o, text }) => expect(finalText(knowing(k), o)).toBe(text));

  it.each([
    { name: 'nothing sent', k: {}, says: 'before job \'j1\' was submitted; exiting (nothing was submitted, nothing is left running)' },
    { name: 'a submit in flight', k: { submitSent: true }, says: 'while submitting job \'j1\'; exiting without stopping it (it may have been submitted' },
    { name: 'a running job', k: { seen: true, lastStatus: 'RUNNING' as const }, says: 'exiting without stopping job \'j1\' (it keeps running)' },
    { name: 'a job that had ended', k: { seen: true, lastStatus: 'SUCCEEDED' as const }, says: 'had already ended (SUCCEEDED)' },
  ])('a signal with $name says so', ({ k, says }) => expect(signalNotice('SIGTERM', knowing(k))).toContain(says));
});

describe('why GCS is not healthy, in a few words', () => {
  it.each<[string, RayFailure, string]>([
    ['refused', { kind: 'unavailable', cause: 'refused', message: 'connect ECONNREFUSED 10.0.0.1:8265' }, 'connection refused'],
    ['dns', { kind: 'unavailable', cause: 'dns', message: 'getaddrinfo ENOTFOUND head' }, 'no such host head-svc.ns.svc'],
    ['timeout', { kind: 'unavailable', cause: 'timeout', message: 'timeout' }, 'no answer in time'],
    ['reset', { kind: 'unavailable', cause: 'reset', message: 'ECONNRESET' }, 'connection reset'],
    ['tls', { kind: 'unavailable', cause: 'tls', message: 'self-signed certificate' }, 'TLS: self-signed certificate'],
    ['5xx with Ray\'s reason', { kind: 'unavailable', cause: 'server-error', status: 503, message: 'HTTP 503: GCS is not ready' }, 'HTTP 503: GCS is not ready'],
    ['5xx without a body', { kind: 'unavailable', cause: 'server-error', status: 500, message: 'HTTP 500: ' }, 'HTTP 500'],
    ['a 403', { kind: 'rejected', status: 403, message: 'HTTP 403: Forbidden' }, 'HTTP 403: Forbidden'],
    ['a 404 (not a Ray dashboard?)', { kind: 'not-found', status: 404, message: 'HTTP 404: Not Found' }, 'HTTP 404: Not Found'],
  ])('%s', (_name, failure, expected) => expect(unhealthyReason(failure, 'http://head-svc.ns.svc:8265')).toBe(expected));
});

describe('the driver watch says when its bound falls due', () => {
  it('nothing counted: undefined; counting: the time left, which the watcher sleeps at most', () => {
    const watch = createDriverWatch(1000);
    expect(watch.msUntilLost(0)).toBeUndefined();
    watch.observe({ status: 'RUNNING', driver_node_id: 'n1' }, { kind: 'dead' }, 200);
    expect(watch.msUntilLost(500)).toBe(700);
    watch.observe({ status: 'RUNNING', driver_node_id: 'n1' }, { kind: 'alive' }, 600);
    expect(watch.msUntilLost(600)).toBeUndefined();
  });
});
