// A seed's fault schedule: which RayJob (mode, length, outcome, retries) and which faults at which points of
// the job's progress, drawn from a seeded generator so a failing seed replays exactly.
import type { RayJobShape } from '../scenario/manifests.ts';
import type { FaultName, SubmissionMode } from '../scenario/types.ts';

/** Faults on the job's own objects (the scenario runner's names) and on the API server (the proxy's). */
export type CampaignFault =
  | { kind: 'job'; fault: Extract<FaultName, 'deleteSubmitterPod' | 'deleteSubmitterJob' | 'killJobHead' | 'killDashboardAgent' | 'forceDeleteHeadPod' | 'deleteHeadPod'> }
  | { kind: 'api'; fault: 'burst5xx' | 'burst429' | 'conflicts' | 'expireWatches' | 'gone' }
  | { kind: 'operator'; fault: 'restart' };

export interface ScheduledFault {
  /** Fires once the job printed this many steps (0 = as soon as the RayJob is Running). */
  atStep: number;
  fault: CampaignFault;
}

export interface SeedPlan {
  seed: number;
  shape: RayJobShape;
  faults: ScheduledFault[];
}

/** mulberry32: tiny, fast, and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const jobFaults = ['deleteSubmitterPod', 'deleteSubmitterJob', 'killJobHead', 'killDashboardAgent', 'forceDeleteHeadPod', 'deleteHeadPod'] as const;
const apiFaults = ['burst5xx', 'burst429', 'conflicts', 'expireWatches', 'gone'] as const;
const modes: SubmissionMode[] = ['K8sJobMode', 'K8sJobMode', 'SidecarMode', 'HTTPMode'];

export function planSeed(seed: number, options: { operatorRestarts?: boolean } = {}): SeedPlan {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const mode = pick(modes);
  const steps = 12 + Math.floor(random() * 14);
  const shape: RayJobShape = {
    mode: mode as Exclude<SubmissionMode, 'InteractiveMode'>,
    steps,
    stepSeconds: 0.5,
    promptHeadReadiness: true,
    ...(random() < 0.2 && { exitCode: 1 }),
    ...(random() < 0.3 && { shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 }),
    ...(mode === 'K8sJobMode' && { submitterBackoffLimit: Math.floor(random() * 3) }),
  };
  const faults: ScheduledFault[] = [];
  const count = Math.floor(random() * 4);
  for (let i = 0; i < count; i += 1) {
    const r = random();
    // Faults land while the job runs (its first steps to a few steps before its end).
    const atStep = 1 + Math.floor(random() * (steps - 4));
    if (r < 0.55) faults.push({ atStep, fault: { kind: 'job', fault: pick(jobFaults) } });
    else if (r < 0.9 || !options.operatorRestarts) faults.push({ atStep, fault: { kind: 'api', fault: pick(apiFaults) } });
    else faults.push({ atStep, fault: { kind: 'operator', fault: 'restart' } });
  }
  faults.sort((a, b) => a.atStep - b.atStep);
  return { seed, shape, faults };
}

export function describeFault(f: CampaignFault): string {
  return f.kind === 'operator' ? 'operator restart' : f.fault;
}
