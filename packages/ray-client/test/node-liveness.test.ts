import { describe, expect, it } from 'vitest';
import { client, deadPort, emulator, rawServer, untilStatus } from './support/fixtures.ts';
import { waitFor } from './support/wait-for.ts';

async function driverNode(address: string, id: string): Promise<string> {
  const c = client({ address });
  await untilStatus(c, id, 'RUNNING');
  const job = await c.getJob(id);
  if (job.kind !== 'ok' || !job.value.driver_node_id) throw new Error('no driver node id');
  return job.value.driver_node_id;
}

describe('nodeLiveness', () => {
  it('alive while the head runs, dead after killAgent (after the delay), the job frozen RUNNING', async () => {
    const e = await emulator({ timing: { nodeDeathDelayMs: 150 } });
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'while true; do sleep 0.05; done', submission_id: 'n1' });
    const node = await driverNode(e.url, 'n1');
    expect(await c.nodeLiveness(node)).toEqual({ kind: 'alive' });
    await e.faults.killAgent();
    expect(await c.nodeLiveness(node)).toEqual({ kind: 'alive' });
    await waitFor(async () => (await c.nodeLiveness(node)).kind === 'dead', { what: 'the node to be DEAD' });
    expect(await c.getJob('n1')).toMatchObject({ kind: 'ok', value: { status: 'RUNNING' } });
  });

  it('missing after the head was lost (a fresh head never knew the node)', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'sleep 5', submission_id: 'n2' });
    const node = await driverNode(e.url, 'n2');
    await e.faults.loseHead();
    // The head's death also cut the pooled connection; the GET is repeated once on a fresh one.
    expect(await c.nodeLiveness(node)).toEqual({ kind: 'missing' });
  });

  it('alive for a worker the driver was placed on', async () => {
    const e = await emulator();
    const worker = e.addWorkerNode({ resources: { gpu_slot: 1 } });
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'sleep 5', submission_id: 'n3', entrypoint_resources: { gpu_slot: 1 } });
    expect(await driverNode(e.url, 'n3')).toBe(worker);
    expect(await c.nodeLiveness(worker)).toEqual({ kind: 'alive' });
  });

  it.each([
    ['a 5xx', async () => {
      const e = await emulator();
      e.faults.fail5xx(1, 503);
      return e.url;
    }, /HTTP 503/],
    ['a refused connection', async () => `http://127.0.0.1:${await deadPort()}`, /refused/],
    ['result: false', async () => (await rawServer((_q, r) => r.end('{"result":false,"msg":"boom"}'))).url, /result=false: boom/],
    ['a non-JSON body', async () => (await rawServer((_q, r) => r.end('<html>'))).url, /not JSON/],
    ['a foreign shape', async () => (await rawServer((_q, r) => r.end('{"result":true,"data":{"summary":[{"x":1}]}}'))).url, /shape/],
    ['an unknown node state', async () =>
      (await rawServer((_q, r) => r.end('{"result":true,"data":{"summary":[{"raylet":{"nodeId":"abc","state":"DRAINING"}}]}}'))).url,
      /DRAINING/],
    ['a 401', async () => (await emulator({ authToken: 'tok' })).url, /HTTP 401/],
  ])('inconclusive (never dead) on %s', async (_name, setup, reason) => {
    const result = await client({ address: await setup() }).nodeLiveness('abc');
    expect(result.kind).toBe('inconclusive');
    expect(result.kind === 'inconclusive' && result.reason).toMatch(reason);
  });
});

describe('nodeTable', () => {
  it('one request judges any number of nodes', async () => {
    let requests = 0;
    const server = await rawServer((_q, r) => {
      requests += 1;
      r.end('{"result":true,"data":{"summary":[{"raylet":{"nodeId":"a","state":"ALIVE"}},{"raylet":{"nodeId":"b","state":"DEAD"}}]}}');
    });
    const judge = await client({ address: server.url }).nodeTable();
    expect([judge('a'), judge('b'), judge('c')]).toEqual([{ kind: 'alive' }, { kind: 'dead' }, { kind: 'missing' }]);
    expect(requests).toBe(1);
  });

  it('resolves host names through the lookup option (a cluster DNS outside the cluster)', async () => {
    const server = await rawServer((_q, r) => r.end('{"result":true,"data":{"summary":[]}}'));
    const port = new URL(server.url).port;
    const asked: string[] = [];
    const c = client({
      address: `http://head-svc.default.svc.cluster.local:${port}`,
      lookup: (hostname, options, callback) => {
        asked.push(hostname);
        if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
        else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
      },
    });
    expect((await c.nodeTable())('x')).toEqual({ kind: 'missing' });
    expect(asked).toContain('head-svc.default.svc.cluster.local');
  });
});
