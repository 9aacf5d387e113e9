// Lease leader election as client-go's tools/leaderelection with controller-runtime's timings (lease 15 s,
// renew deadline 10 s, retry 2 s). Another holder's lease is judged by when *we* last saw it change, not by
// its renewTime, so clock skew between replicas does not matter. A leader that cannot renew within the
// renew deadline aborts its leading signal at once (controllers stop taking work) and run() resolves
// 'lost'; on shutdown it releases the lease so a successor need not wait out the duration.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sleep, systemClock, type Clock } from '../clock.ts';
import { describeError, isAlreadyExists, isConflict, isNotFound } from '../client/errors.ts';
import type { KubeClient } from '../client/rest-client.ts';
import { formatMicroTime } from '@rayjob/kube-model';
import { silentLogger, type Logger } from '../log.ts';
import { leaseLock, type Lease, type LeaseSpec } from './lease-lock.ts';

export interface LeaderElectionOptions {
  client: KubeClient;
  namespace: string;
  /** KubeRay's is `ray-operator-leader`. */
  name: string;
  /** Default: POD_NAME or the host name, plus a random suffix. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  releaseOnCancel?: boolean;
  clock?: Clock;
  logger?: Logger;
  /** Called once leadership is won; `signal` aborts the moment it is lost or given up. */
  onStartedLeading?: (signal: AbortSignal) => void;
  /** Awaited (on shutdown) before the lease is released: wait for in-flight work here. */
  onStoppedLeading?: () => void | Promise<void>;
  /** Leading flips (the leader_election_master_status gauge). */
  onLeaderChange?: (leading: boolean) => void;
  /** The moment the renew deadline passed without a renewal, while leading or while draining after a stop. */
  onLost?: () => void;
}

export type ElectionEnd = 'lost' | 'released' | 'stopped';

export interface LeaderElector {
  readonly identity: string;
  isLeader(): boolean;
  /** Campaigns, leads, and resolves how it ended: leadership lost, or `signal` aborted (released or not). */
  run(signal: AbortSignal): Promise<ElectionEnd>;
}

export const defaultIdentity = (): string => `${process.env.POD_NAME ?? hostname()}_${randomUUID()}`;

// structure-exception(function-lines createLeaderElector): over the limit before #21 set it; the split is left for a follow-up of #21
export function createLeaderElector(options: LeaderElectionOptions): LeaderElector {
  const clock = options.clock ?? systemClock;
  const leaseDurationMs = options.leaseDurationMs ?? 15_000;
  const renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
  const retryPeriodMs = options.retryPeriodMs ?? 2_000;
  const identity = options.identity ?? defaultIdentity();
  const log = (options.logger ?? silentLogger).child({ lease: `${options.namespace}/${options.name}`, identity });
  const lock = leaseLock(options.client, options.namespace, options.name);
  // A call may not outlive one retry period, so a renewal attempt never eats the whole renew deadline.
  const callTimeoutMs = Math.max(retryPeriodMs, 500);
  let observed: { key: string; at: number } | undefined;
  let current: Lease | undefined;
  let leading = false;
  let lastHolder: string | undefined;

  const spec = (now: number, previous: LeaseSpec | undefined): LeaseSpec => {
    const sameHolder = previous?.holderIdentity === identity;
    return {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(leaseDurationMs / 1000),
      acquireTime: sameHolder && previous?.acquireTime ? previous.acquireTime : formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: previous === undefined ? 0 : sameHolder ? (previous.leaseTransitions ?? 0) : (previous.leaseTransitions ?? 0) + 1,
    };
  };

  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const now = clock.now();
    const got = await lock.get(callTimeoutMs);
    if (!got.ok) {
      if (!isNotFound(got.error)) {
        log.warn({ error: describeError(got.error) }, 'error retrieving lease');
        return false;
      }
      const created = await lock.create(spec(now, undefined), callTimeoutMs);
      if (!created.ok) {
        if (!isAlreadyExists(created.error)) log.warn({ error: describeError(created.error) }, 'error creating lease');
        return false;
      }
      current = created.value;
      observed = { key: JSON.stringify(created.value.spec), at: now };
      return true;
    }
    const record = got.value.spec ?? {};
    const key = JSON.stringify({ h: record.holderIdentity, r: record.renewTime, d: record.leaseDurationSeconds });
    if (observed?.key !== key) observed = { key, at: now };
    if (record.holderIdentity !== lastHolder) {
      lastHolder = record.holderIdentity;
      if (lastHolder) log.info({ leader: lastHolder }, 'new leader observed');
    }
    const holder = record.holderIdentity ?? '';
    const duration = (record.leaseDurationSeconds ?? Math.ceil(leaseDurationMs / 1000)) * 1000;
    if (holder !== '' && holder !== identity && observed.at + duration > now) return false;
    const updated = await lock.update(got.value, spec(now, record), callTimeoutMs);
    if (!updated.ok) {
      if (!isConflict(updated.error)) log.warn({ error: describeError(updated.error) }, 'error updating lease');
      return false;
    }
    current = updated.value;
    observed = { key: JSON.stringify({ h: identity, r: updated.value.spec?.renewTime, d: updated.value.spec?.leaseDurationSeconds }), at: now };
    return true;
  };

  /** Renews every retry period (trying again each period on failure); false once the renew deadline passes. */
  const keepRenewing = async (signal: AbortSignal): Promise<boolean> => {
    for (;;) {
      await sleep(clock, retryPeriodMs, signal);
      if (signal.aborted) return true;
      const deadline = clock.now() + renewDeadlineMs;
      while (!(await tryAcquireOrRenew())) {
        if (signal.aborted) return true;
        if (clock.now() + retryPeriodMs > deadline) return false;
        await sleep(clock, retryPeriodMs, signal);
      }
    }
  };

  const release = async (): Promise<boolean> => {
    if (!current || current.spec?.holderIdentity !== identity) return false;
    const now = clock.now();
    const released = await lock.update(current, { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: formatMicroTime(now), renewTime: formatMicroTime(now), leaseTransitions: current.spec?.leaseTransitions ?? 0 }, callTimeoutMs);
    if (!released.ok) log.warn({ error: describeError(released.error) }, 'failed to release lease');
    return released.ok;
  };

  const setLeading = (value: boolean): void => {
    leading = value;
    options.onLeaderChange?.(value);
  };

  return {
    identity,
    isLeader: () => leading,
    run: async (signal) => {
      log.info('attempting to acquire leader lease');
      while (!signal.aborted && !(await tryAcquireOrRenew())) {
        // client-go jitters the retry by up to 1.2x so followers do not hammer the lease together.
        await sleep(clock, retryPeriodMs * (1 + 1.2 * Math.random()), signal);
      }
      if (signal.aborted) return 'stopped';
      log.info('successfully acquired lease');
      const leadership = new AbortController();
      const onShutdown = (): void => leadership.abort();
      signal.addEventListener('abort', onShutdown, { once: true });
      setLeading(true);
      options.onStartedLeading?.(leadership.signal);
      // Renewal goes on while controllers drain after a shutdown, so no one else leads before they finish.
      const renewing = new AbortController();
      let lost = false;
      const renewed = keepRenewing(renewing.signal).then((kept) => {
        lost = !kept;
        if (lost) options.onLost?.();
        leadership.abort();
      });
      await new Promise<void>((resolve) => (leadership.signal.aborted ? resolve() : leadership.signal.addEventListener('abort', () => resolve(), { once: true })));
      signal.removeEventListener('abort', onShutdown);
      setLeading(false);
      if (lost) {
        log.error('leader election lost');
        void options.onStoppedLeading?.();
        return 'lost';
      }
      await options.onStoppedLeading?.();
      renewing.abort();
      await renewed;
      if (lost) return 'lost';
      return options.releaseOnCancel === false ? 'stopped' : (await release()) ? 'released' : 'stopped';
    },
  };
}
