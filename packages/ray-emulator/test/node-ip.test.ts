// The head reports its pod's IP in /nodes, as a real head does: the submitter compares it with the head its
// attempt started on, so an emulated head bound to 0.0.0.0 must not report 127.0.0.1 there.
import { describe, expect, it } from 'vitest';
import { startRayEmulator } from '../src/index.ts';

async function headEntry(options: Parameters<typeof startRayEmulator>[0]) {
  const e = await startRayEmulator({ port: 0, ...options });
  try {
    const body = await (await fetch(`${e.url.replace('0.0.0.0', '127.0.0.1')}/nodes?view=summary`)).json() as { data: { summary: Array<{ ip: string; raylet: { isHeadNode: boolean; nodeManagerAddress: string } }> } };
    return body.data.summary.find((n) => n.raylet.isHeadNode);
  } finally {
    await e.stop();
  }
}

describe('the head\'s IP in /nodes', () => {
  it.each([
    { name: 'bound to 0.0.0.0 with --node-ip (a pod in its own network namespace)', options: { host: '0.0.0.0', nodeIp: '10.244.0.7' }, ip: '10.244.0.7' },
    { name: 'bound to 0.0.0.0 without it', options: { host: '0.0.0.0' }, ip: '127.0.0.1' },
    { name: 'bound to its loopback pod IP', options: { host: '127.0.0.1' }, ip: '127.0.0.1' },
  ])('$name: $ip', async ({ options, ip }) => {
    const head = await headEntry(options);
    expect(head).toMatchObject({ ip, raylet: { isHeadNode: true, nodeManagerAddress: ip } });
  });
});
