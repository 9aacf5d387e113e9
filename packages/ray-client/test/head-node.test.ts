// headNode: which node is the head, from the node table, and answers that are not a head told apart (the
// submitter skips its expected-head check on "no head"/"no endpoint"/"unreadable", retries on "unavailable").
import { describe, expect, it } from 'vitest';
import { judgeHeadNode } from '../src/head-node.ts';
import { client, emulator } from './support/fixtures.ts';

const table = (summary: unknown[], result = true) => ({ kind: 'answer' as const, status: 200, body: JSON.stringify({ result, msg: 'm', data: { summary } }) });
const entry = (isHeadNode: boolean, state: string, nodeManagerAddress?: string, ip?: string) => ({ ...(ip && { ip }), raylet: { nodeId: `n-${state}-${nodeManagerAddress ?? ip}`, state, isHeadNode, ...(nodeManagerAddress && { nodeManagerAddress }) } });

describe('judgeHeadNode', () => {
  it.each([
    { name: 'the head entry\'s nodeManagerAddress', outcome: table([entry(false, 'ALIVE', '10.0.0.9'), entry(true, 'ALIVE', '10.0.0.1', '10.0.0.2')]), want: { kind: 'head', ip: '10.0.0.1' } },
    { name: 'its ip when the raylet gives no address', outcome: table([entry(true, 'ALIVE', undefined, '10.0.0.2')]), want: { kind: 'head', ip: '10.0.0.2' } },
    { name: 'the ALIVE head over a DEAD one', outcome: table([entry(true, 'DEAD', '10.0.0.1'), entry(true, 'ALIVE', '10.0.0.3')]), want: { kind: 'head', ip: '10.0.0.3' } },
    { name: 'no head entry', outcome: table([entry(false, 'ALIVE', '10.0.0.9')]), want: { kind: 'no-head' } },
    { name: 'a head without any address', outcome: table([entry(true, 'ALIVE')]), want: { kind: 'no-head' } },
    { name: '404: no node table', outcome: { kind: 'answer' as const, status: 404, body: '' }, want: { kind: 'no-endpoint' } },
    { name: '403', outcome: { kind: 'answer' as const, status: 403, body: '' }, want: { kind: 'unreadable' } },
    { name: 'not JSON', outcome: { kind: 'answer' as const, status: 200, body: '<html>' }, want: { kind: 'unreadable' } },
    { name: 'another shape', outcome: { kind: 'answer' as const, status: 200, body: '{"nodes": []}' }, want: { kind: 'unreadable' } },
    { name: '503', outcome: { kind: 'answer' as const, status: 503, body: '' }, want: { kind: 'unavailable' } },
    { name: 'result=false (a dashboard still starting)', outcome: table([], false), want: { kind: 'unavailable' } },
    { name: 'a transport error', outcome: { kind: 'transport-error' as const, cause: 'refused' as const, message: 'ECONNREFUSED' }, want: { kind: 'unavailable' } },
  ])('$name -> $want.kind', ({ outcome, want }) => {
    expect(judgeHeadNode(outcome as Parameters<typeof judgeHeadNode>[0])).toMatchObject(want);
  });
});

describe('headNode against the emulator', () => {
  it('names the emulated head at its address', async () => {
    const e = await emulator();
    const answer = await client({ address: e.url }).headNode();
    expect(answer).toMatchObject({ kind: 'head', ip: '127.0.0.1' });
  });
});
