// The operator's dashboard connections (#27): one pool shared by every cluster's client, bounded per dashboard,
// idle connections closed. Counted on the operator's own sockets (every TCP connection this process opens to the
// emulators' ports), against real Ray emulators over real HTTP.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { RayCluster } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardClients, type DashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import { eventually } from './support/api.ts';

let emulators: RayEmulator[] = [];
const sockets: Socket[] = [];
const onSocket = (message: unknown): void => {
  const socket = (message as { socket: Socket }).socket;
  socket.once('connect', () => { if (emulators.some((e) => e.port === socket.remotePort)) sockets.push(socket); });
};

beforeAll(async () => {
  emulators = await Promise.all([startRayEmulator({ timing: fastTiming }), startRayEmulator({ timing: fastTiming })]);
  subscribe('net.client.socket', onSocket);
});
afterAll(async () => {
  unsubscribe('net.client.socket', onSocket);
  await Promise.all(emulators.map((e) => e.stop()));
});

const cluster = (uid: string) => ({ metadata: { name: `c-${uid}`, namespace: 'default', uid } }) as unknown as RayCluster;

async function ask(dashboards: DashboardClients, uid: string, emulator: RayEmulator): Promise<void> {
  const access = await dashboards.clientFor(cluster(uid), emulator.url);
  if (!access.ok) throw new Error(access.message);
  const answer = await access.client.getJob('no-such-job');
  expect(answer.kind).toBe('not-found');
}

const openSockets = (from: number): Socket[] => sockets.slice(from).filter((s) => !s.destroyed);

describe('dashboard connection pools', { timeout: 30_000 }, () => {
  it('clients of different clusters reuse one connection to the same dashboard (one pool, not one per cluster)', async () => {
    // One connection per origin: with a pool per client, each cluster's client would still open its own.
    const dashboards = createDashboardClients({ useKubernetesProxy: false }, () => Promise.resolve(undefined), undefined, undefined, { connectionsPerOrigin: 1 });
    const mark = sockets.length;
    // Two RayJob attempts' clusters on one head address (and, through the API server's proxy, every cluster
    // shares one origin): one after the other, the second reuses the first one's idle keep-alive connection.
    for (const uid of ['a', 'b', 'c', 'd']) await ask(dashboards, uid, emulators[0] as RayEmulator);
    expect(sockets.length - mark).toBe(1);
    await dashboards.close();
    expect(openSockets(mark)).toEqual([]);
  });

  it('connections per dashboard are bounded however many requests run at once, and each dashboard gets its own', async () => {
    const dashboards = createDashboardClients({ useKubernetesProxy: false }, () => Promise.resolve(undefined), undefined, undefined, { connectionsPerOrigin: 3 });
    const mark = sockets.length;
    await Promise.all(Array.from({ length: 40 }, (_, i) => ask(dashboards, `u${i}`, emulators[i % 2] as RayEmulator)));
    const opened = sockets.slice(mark);
    for (const e of emulators) {
      const toIt = opened.filter((s) => s.remotePort === e.port).length;
      expect(toIt).toBeGreaterThan(0);
      expect(toIt).toBeLessThanOrEqual(3);
    }
    await dashboards.close();
  });

  it('idle connections are closed (and nothing is kept for a dashboard no longer asked)', async () => {
    const dashboards = createDashboardClients({ useKubernetesProxy: false }, () => Promise.resolve(undefined), undefined, undefined, { idleMs: 200 });
    const mark = sockets.length;
    await Promise.all(emulators.map((e, i) => ask(dashboards, `idle-${i}`, e)));
    expect(openSockets(mark).length).toBe(2);
    await eventually('the idle connections to close', () => openSockets(mark).length === 0, 10_000);
    // The pool still serves a new request afterwards (a fresh connection).
    await ask(dashboards, 'idle-0', emulators[0] as RayEmulator);
    await dashboards.close();
  });
});
