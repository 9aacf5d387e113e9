import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimSubnet, claimsDir, reapDeadClaims, releaseSubnet } from '../../src/kubelet/network-claims.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { createPod, startHarness, waitFor, waitForPhase } from './harness.ts';

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

/** A `sleep` no other process on the machine runs (containers have their own PID namespaces, so `$!` there is not a host pid). */
const uniqueSleep = (): string => `120.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

/** Host pids of the processes whose command line is exactly `argv`. */
function hostPids(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((e) => {
    try { return readFileSync(`/proc/${e}/cmdline`, 'utf8') === wanted; } catch { return false; }
  }).map(Number);
}

describe('stopping the node', () => {
  it('leaves no process (even one that escaped its process group), network namespace, bridge or pod file', async () => {
    const h = await startHarness();
    const network = h.node.network;
    const runaway = uniqueSleep();
    await createPod(h.client, { metadata: { name: 'runner' }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', `setsid sleep ${runaway} & echo escaped=$!; sleep 120`] }] } });
    await waitForPhase(h.client, 'runner', ['Running']);
    const pid = await waitFor('pid', () => h.node.kubelet.containerPid('default', 'runner', 'main'));
    await waitFor('escaped', () => (/escaped=\d+/.test(existsSync(podLogPath(h.dir, 'default', 'runner', 'main')) ? readFileSync(podLogPath(h.dir, 'default', 'runner', 'main'), 'utf8') : '') ? true : undefined));
    const escaped = await waitFor('escaped pid', () => hostPids(['sleep', runaway])[0]);
    expect(alive(pid) && alive(escaped)).toBe(true);
    const namespaces = (): string => execFileSync('ip', ['netns', 'list']).toString();
    const k = network.gatewayIP.split('.')[2];
    if (network.mode === 'netns') expect(namespaces()).toContain(`rayjob-${k}-`);
    const dir = h.dir;

    await h.node.stop();
    expect(alive(pid)).toBe(false);
    if (network.mode === 'netns') {
      // Processes that left the container's process group die with its network namespace.
      // (init reaps it, so allow a moment for the zombie to go)
      await waitFor('escaped process reaped', () => (alive(escaped) ? undefined : true), 5000);
      expect(namespaces()).not.toContain(`rayjob-${k}-`);
      expect(execFileSync('ip', ['link', 'show']).toString()).not.toContain(`rjbr${k}:`);
    }
    expect(existsSync(join(dir, 'kubelet'))).toBe(false);
    expect(existsSync(join(dir, 'pods'))).toBe(false);
    await h.api.stop();
    await import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true, force: true }));
  });

  it('when a container ends, processes it started in their own session end with it (restart leaves no strays)', async () => {
    const h = await startHarness();
    try {
      const runaway = uniqueSleep();
      // The container waits until its stray is up, so the stray is seen on the host before the container ends.
      await createPod(h.client, { metadata: { name: 'stray' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', `setsid sleep ${runaway} & echo stray=$!; sleep 3`] }] } });
      const stray = await waitFor('stray pid', () => hostPids(['sleep', runaway])[0], 20_000);
      await waitForPhase(h.client, 'stray', ['Succeeded']);
      await waitFor('stray killed', () => (alive(stray) ? undefined : true), 5000);
    } finally {
      await h.stop();
    }
  });

  it('a sandbox reaps the subnet, namespaces and bridge a dead sandbox process left behind', async () => {
    // Stage the leftovers of a sandbox whose process died: a claim naming a dead owner, its bridge and a pod namespace.
    const k = 251 + Math.floor(Math.random() * 4);
    mkdirSync(claimsDir, { recursive: true });
    writeFileSync(join(claimsDir, `subnet-${k}`), '999999999 0');
    execFileSync('ip', ['link', 'add', `rjbr${k}`, 'type', 'bridge']);
    execFileSync('ip', ['netns', 'add', `rayjob-${k}-7`]);
    try {
      await reapDeadClaims(); // (a sandbox starting in a parallel test file may reap it first: same outcome)
      expect(await claimSubnet(k)).toBe(true);
      expect(execFileSync('ip', ['netns', 'list']).toString()).not.toContain(`rayjob-${k}-7`);
      expect(execFileSync('ip', ['link', 'show']).toString()).not.toContain(`rjbr${k}:`);
      // Now held by a live owner (this process): nobody else may take it.
      expect(await claimSubnet(k)).toBe(false);
    } finally {
      releaseSubnet(k);
      try { execFileSync('ip', ['netns', 'del', `rayjob-${k}-7`], { stdio: 'ignore' }); } catch { /* reaped */ }
      try { execFileSync('ip', ['link', 'del', `rjbr${k}`], { stdio: 'ignore' }); } catch { /* reaped */ }
    }
  });
});
