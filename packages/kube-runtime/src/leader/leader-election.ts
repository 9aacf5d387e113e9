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

/** One elector's settings and what it has seen of the lease; the functions below act on it. */
interface Election {
  options: LeaderElectionOptions;
  clock: Clock;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  identity: string;
  log: Logger;
  lock: ReturnType<typeof leaseLock>;
  callTimeoutMs: number;
  observed: { key: string; at: number } | undefined;
  current: Lease | undefined;
  leading: boolean;
  lastHolder: string | undefined;
}

export function createLeaderElector(options: LeaderElectionOptions): LeaderElector {
  const identity = options.identity ?? defaultIdentity();
  const retryPeriodMs = options.retryPeriodMs ?? 2_000;
  const e: Election = {
    options,
    clock: options.clock ?? systemClock,
    leaseDurationMs: options.leaseDurationMs ?? 15_000,
    renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
    retryPeriodMs,
    identity,
    log: (options.logger ?? silentLogger).child({ lease: `${options.namespace}/${options.name}`, identity }),
    lock: leaseLock(options.client, options.namespace, options.name),
    // A call may not outlive one retry period, so a renewal attempt never eats the whole renew deadline.
    callTimeoutMs: Math.max(retryPeriodMs, 500),
    observed: undefined,
    current: undefined,
    leading: false,
    lastHolder: undefined,
  };
  return { identity, isLeader: () => e.leading, run: (signal) => run(e, signal) };
}

function leaseSpec(e: Election, now: number, previous: LeaseSpec | undefined): LeaseSpec {
  const sameHolder = previous?.holderIdentity === e.identity;
  return {
    holderIdentity: e.identity,
    leaseDurationSeconds: Math.ceil(e.leaseDurationMs / 1000),
    acquireTime: sameHolder && previous?.acquireTime ? previous.acquireTime : formatMicroTime(now),
    renewTime: formatMicroTime(now),
    leaseTransitions: previous === undefined ? 0 : sameHolder ? (previous.leaseTransitions ?? 0) : (previous.leaseTransitions ?? 0) + 1,
  };
}

async function tryAcquireOrRenew(e: Election): Promise<boolean> {
  const now = e.clock.now();
  const got = await e.lock.get(e.callTimeoutMs);
  if (!got.ok) {
    if (!isNotFound(got.error)) {
      e.log.warn({ error: describeError(got.error) }, 'error retrieving lease');
      return false;
    }
    const created = await e.lock.create(leaseSpec(e, now, undefined), e.callTimeoutMs);
    if (!created.ok) {
      if (!isAlreadyExists(created.error)) e.log.warn({ error: describeError(created.error) }, 'error creating lease');
      return false;
    }
    e.current = created.value;
    e.observed = { key: JSON.stringify(created.value.spec), at: now };
    return true;
  }
  const record = got.value.spec ?? {};
  const key = JSON.stringify({ h: record.holderIdentity, r: record.renewTime, d: record.leaseDurationSeconds });
  if (e.observed?.key !== key) e.observed = { key, at: now };
  if (record.holderIdentity !== e.lastHolder) {
    e.lastHolder = record.holderIdentity;
    if (e.lastHolder) e.log.info({ leader: e.lastHolder }, 'new leader observed');
  }
  const holder = record.holderIdentity ?? '';
  const duration = (record.leaseDurationSeconds ?? Math.ceil(e.leaseDurationMs / 1000)) * 1000;
  if (holder !== '' && holder !== e.identity && e.observed.at + duration > now) return false;
  const updated = await e.lock.update(got.value, leaseSpec(e, now, record), e.callTimeoutMs);
  if (!updated.ok) {
    if (!isConflict(updated.error)) e.log.warn({ error: describeError(updated.error) }, 'error updating lease');
    return false;
  }
  e.current = updated.value;
  e.observed = { key: JSON.stringify({ h: e.identity, r: updated.value.spec?.renewTime, d: updated.value.spec?.leaseDurationSeconds }), at: now };
  return true;
}

/** Renews every retry period (trying again each period on failure); false once the renew deadline passes. */
async function keepRenewing(e: Election, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    await sleep(e.clock, e.retryPeriodMs, signal);
    if (signal.aborted) return true;
    const deadline = e.clock.now() + e.renewDeadlineMs;
    while (!(await tryAcquireOrRenew(e))) {
      if (signal.aborted) return true;
      if (e.clock.now() + e.retryPeriodMs > deadline) return false;
      await sleep(e.clock, e.retryPeriodMs, signal);
    }
  }
}

async function release(e: Election): Promise<boolean> {
  const current = e.current;
  if (!current || current.spec?.holderIdentity !== e.identity) return false;
  const now = e.clock.now();
  const released = await e.lock.update(current, { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: formatMicroTime(now), renewTime: formatMicroTime(now), leaseTransitions: current.spec?.leaseTransitions ?? 0 }, e.callTimeoutMs);
  if (!released.ok) e.log.warn({ error: describeError(released.error) }, 'failed to release lease');
  return released.ok;
}

function setLeading(e: Election, value: boolean): void {
  e.leading = value;
  e.options.onLeaderChange?.(value);
}

async function run(e: Election, signal: AbortSignal): Promise<ElectionEnd> {
  e.log.info('attempting to acquire leader lease');
  while (!signal.aborted && !(await tryAcquireOrRenew(e))) {
    // client-go jitters the retry by up to 1.2x so followers do not hammer the lease together.
    await sleep(e.clock, e.retryPeriodMs * (1 + 1.2 * Math.random()), signal);
  }
  if (signal.aborted) return 'stopped';
  e.log.info('successfully acquired lease');
  return lead(e, signal);
}

/** Leads until the lease is lost or `signal` aborts; then stops the leader's work and (by default) releases. */
async function lead(e: Election, signal: AbortSignal): Promise<ElectionEnd> {
  const { options } = e;
  const leadership = new AbortController();
  const onShutdown = (): void => leadership.abort();
  signal.addEventListener('abort', onShutdown, { once: true });
  setLeading(e, true);
  options.onStartedLeading?.(leadership.signal);
  // Renewal goes on while controllers drain after a shutdown, so no one else leads before they finish.
  const renewing = new AbortController();
  let lost = false;
  const renewed = keepRenewing(e, renewing.signal).then((kept) => {
    lost = !kept;
    if (lost) options.onLost?.();
    leadership.abort();
  });
  await new Promise<void>((resolve) => (leadership.signal.aborted ? resolve() : leadership.signal.addEventListener('abort', () => resolve(), { once: true })));
  signal.removeEventListener('abort', onShutdown);
  setLeading(e, false);
  if (lost) {
    e.log.error('leader election lost');
    void options.onStoppedLeading?.();
    return 'lost';
  }
  await options.onStoppedLeading?.();
  renewing.abort();
  await renewed;
  if (lost) return 'lost';
  return options.releaseOnCancel === false ? 'stopped' : (await release(e)) ? 'released' : 'stopped';
}
