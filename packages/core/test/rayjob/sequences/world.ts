/**
 * A small world for observation sequences: a Ray job whose life only moves forward (absent -> PENDING ->
 * RUNNING -> terminal, or lost with its head), a submitter, a flaky dashboard, and an executor that performs the
 * decision's actions (a stop may or may not be acknowledged, a status write may be lost). Each step the world
 * moves, the operator observes what its observation plan asks for, decides, and acts. Pure data in, a trace
 * out: the test checks invariants on it with vitest, the bench counts its decisions. No vitest import here.
 */
import fc from 'fast-check';
import {
  decide, formatTerminationMessage, needsDashboardQuery, SUBMITTER_CONTAINER_NAME, type Decision, type DecisionInput, type K8sJob, type OperatorMemory, type Pod, type RayJob, type RayJobStatus,
} from '../../../src/index.ts';
import { at, clusterHeadService, DRIVER_NODE, headPod, inState, iso, JOB_ID, makeCluster, rayJobHeadService, submitterJob, submitterPod, testSettings } from '../fixtures.ts';

export type Mode = 'K8sJobMode' | 'HTTPMode' | 'SidecarMode';
type Phase = 'absent' | 'lost' | RayJobStatus;

export interface Step {
  dt: number;
  /** lose-head: the head is replaced and forgets the job; terminate-head: the head pod is terminating (the
   * next step it is gone); delete-cluster: the RayCluster is deleted with its head (issue 20: also after Ray
   * reported the job terminal). */
  ray: 'stay' | 'advance' | 'finish-SUCCEEDED' | 'finish-FAILED' | 'lose-head' | 'terminate-head' | 'delete-cluster';
  submitter: 'keep' | 'follow' | 'complete' | 'fail' | 'delete' | 'retry';
  writeTerminationMessage: boolean;
  unreachable: boolean;
  driver: 'alive' | 'dead' | 'missing' | 'inconclusive';
  stopAcknowledged: boolean;
  statusWriteLost: boolean;
}

export interface Scenario {
  mode: Mode;
  activeDeadlineSeconds: number | undefined;
  backoffLimit: number;
  /**
   * What Ray knows at the start, and what the CR recorded of it ('' = nothing, e.g. a lost write). A terminal
   * start is a job that ended (at t0+5) while the RayJob waits for its submitter's last logs (#1919).
   */
  rayStart: 'absent' | 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'STOPPED';
  recorded: boolean;
  checkFailingSince: number | undefined;
  steps: Step[];
}

/** One reconcile as it happened: the world before it, what the operator saw, what it decided. */
export interface Reconcile {
  input: DecisionInput;
  decision: Decision;
  /** Ray's true phase when the operator looked. */
  phase: Phase;
  /** A Ray status had been recorded for this job before this reconcile (CR, or any earlier answer). */
  seenBefore: boolean;
  /** The plan asked the dashboard (false: the input says not-queried). */
  queried: boolean;
  /** The memory the operator held before this reconcile (for the plan). */
  memoryBefore: OperatorMemory;
  rayJobBefore: RayJob;
  /** What was lost of the head when the operator looked: its cluster, the head pod (gone or terminating), nothing. */
  loss: 'cluster' | 'head' | undefined;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  dt: fc.integer({ min: 1, max: 200 }),
  ray: fc.constantFrom('stay', 'stay', 'advance', 'advance', 'finish-SUCCEEDED', 'finish-FAILED', 'lose-head', 'terminate-head', 'delete-cluster'),
  submitter: fc.constantFrom('keep', 'keep', 'follow', 'follow', 'complete', 'fail', 'delete', 'retry'),
  writeTerminationMessage: fc.boolean(),
  unreachable: fc.integer({ min: 0, max: 2 }).map((n) => n === 0),
  driver: fc.constantFrom('alive', 'alive', 'dead', 'missing', 'inconclusive'),
  stopAcknowledged: fc.boolean(),
  statusWriteLost: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  mode: fc.constantFrom<Mode>('K8sJobMode', 'K8sJobMode', 'HTTPMode', 'SidecarMode'),
  activeDeadlineSeconds: fc.option(fc.integer({ min: 30, max: 900 }), { nil: undefined }),
  backoffLimit: fc.constantFrom(0, 0, 1),
  rayStart: fc.constantFrom('absent', 'PENDING', 'RUNNING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'STOPPED'),
  recorded: fc.boolean(),
  checkFailingSince: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 14 }),
});

interface World {
  now: number;
  rayJob: RayJob;
  memory: OperatorMemory;
  phase: Phase;
  rayStart: number;
  rayEnd: number | undefined;
  stopPending: boolean;
  submitter: { state: 'running' | 'complete' | 'failed' | 'missing'; at: number; attachOnly: boolean; message: RayJobStatus | undefined };
  headGone: boolean;
  headTerminating: boolean;
  clusterGone: boolean;
  seen: boolean;
}

/** Plays a scenario through `decide`, returning every reconcile. Stops when the RayJob leaves Running/Failed/Complete. */
export function play(s: Scenario): Reconcile[] {
  const w = start(s);
  const trace: Reconcile[] = [];
  for (const step of s.steps) {
    w.now += step.dt;
    moveRay(w, step);
    moveSubmitter(w, s, step);
    const queried = needsDashboardQuery(w.rayJob, w.memory);
    const input = observe(w, s, step, queried);
    const decision = decide(input);
    const loss = w.clusterGone ? 'cluster' : w.headGone || w.headTerminating ? 'head' : undefined;
    trace.push({ input, decision, phase: w.phase, seenBefore: w.seen, queried, memoryBefore: w.memory, rayJobBefore: w.rayJob, loss });
    if (input.dashboard.kind === 'found') w.seen = true;
    act(w, step, decision);
    const state = w.rayJob.status?.jobDeploymentStatus;
    if (state !== 'Running' && state !== 'Failed' && state !== 'Complete') break;
  }
  return trace;
}

function start(s: Scenario): World {
  const phase: Phase = s.rayStart;
  const recorded = s.recorded && phase !== 'absent' ? phase : '';
  const ended = isTerminal(phase);
  const rayJob = inState('Running', s.mode, {
    jobStatus: recorded,
    rayJobInfo: phase === 'absent' ? undefined : { startTime: iso(1), ...(ended && recorded ? { endTime: iso(5) } : {}) },
    jobStatusCheckFailureStartTime: s.checkFailingSince === undefined ? undefined : iso(s.checkFailingSince),
  }, { activeDeadlineSeconds: s.activeDeadlineSeconds, backoffLimit: s.backoffLimit });
  return {
    now: 10, rayJob, memory: {}, phase, rayStart: at(1).getTime(), rayEnd: ended ? at(5).getTime() : undefined, stopPending: false,
    submitter: { state: s.mode === 'HTTPMode' ? 'missing' : 'running', at: 0, attachOnly: false, message: undefined },
    headGone: false, headTerminating: false, clusterGone: false, seen: recorded !== '',
  };
}

function moveRay(w: World, step: Step): void {
  if (w.stopPending && (w.phase === 'PENDING' || w.phase === 'RUNNING')) end(w, 'STOPPED');
  if (w.clusterGone) return;
  if (step.ray === 'delete-cluster') {
    // The job dies with its cluster; nothing can be submitted to it any more.
    if (w.phase !== 'absent') w.phase = 'lost';
    w.clusterGone = true;
    w.headTerminating = false;
    return;
  }
  // A terminating head pod is gone one step later, and its replacement does not know the job.
  if ((step.ray === 'lose-head' || w.headTerminating) && w.phase !== 'absent') {
    w.phase = 'lost';
    w.headGone = true;
    w.headTerminating = false;
    return;
  }
  if (step.ray === 'terminate-head' && w.phase !== 'absent') {
    w.headTerminating = true;
    return;
  }
  if (w.phase === 'PENDING' && step.ray === 'advance') w.phase = 'RUNNING';
  else if ((w.phase === 'PENDING' || w.phase === 'RUNNING') && step.ray.startsWith('finish-')) end(w, step.ray === 'finish-FAILED' ? 'FAILED' : 'SUCCEEDED');
}

function end(w: World, status: RayJobStatus): void {
  w.phase = status;
  w.rayEnd = at(w.now - 1).getTime();
}

/** The submitter's life; a submitter that is not attach-only submits whenever Ray does not know the ID. */
function moveSubmitter(w: World, s: Scenario, step: Step): void {
  if (s.mode === 'HTTPMode') return;
  const sub = w.submitter;
  if (sub.state === 'running') {
    // A pod retried by the Job controller after the head was lost submits again unless it is attach-only.
    if (!sub.attachOnly && (w.phase === 'absent' || (w.phase === 'lost' && step.submitter === 'retry'))) submit(w);
    // 'follow': as our submitter does, exit once Ray reports the end (1 for FAILED); complete/fail: exit anyway.
    const follows = step.submitter === 'follow' && isTerminal(w.phase);
    if (follows || step.submitter === 'complete' || step.submitter === 'fail') {
      sub.state = step.submitter === 'fail' || (follows && w.phase === 'FAILED') ? 'failed' : 'complete';
      sub.at = w.now;
      sub.message = step.writeTerminationMessage && isTerminal(w.phase) ? (w.phase as RayJobStatus) : undefined;
    }
  }
  if (step.submitter === 'delete' && s.mode === 'K8sJobMode') sub.state = 'missing';
}

function submit(w: World): void {
  if (w.clusterGone) return;
  w.phase = 'PENDING';
  w.rayStart = at(w.now).getTime();
  w.rayEnd = undefined;
  w.headGone = false;
}

const isTerminal = (p: Phase) => p === 'SUCCEEDED' || p === 'FAILED' || p === 'STOPPED';

function observe(w: World, s: Scenario, step: Step, queried: boolean): DecisionInput {
  const sidecarHeadGone = s.mode === 'SidecarMode' && (w.headGone || w.clusterGone);
  let dashboard: DecisionInput['dashboard'] = { kind: 'not-queried' };
  if (queried) {
    if (step.unreachable || sidecarHeadGone || w.clusterGone || w.headTerminating) dashboard = { kind: 'unreachable', reason: 'connect ECONNREFUSED' };
    else if (w.phase === 'absent' || w.phase === 'lost') dashboard = { kind: 'not-found' };
    else dashboard = { kind: 'found', info: { status: w.phase, message: `Job is ${w.phase.toLowerCase()}.`, startTime: w.rayStart, endTime: w.rayEnd, driverNodeId: DRIVER_NODE } };
  }
  const running = dashboard.kind === 'found' && dashboard.info.status === 'RUNNING';
  return {
    rayJob: w.rayJob,
    cluster: w.clusterGone ? undefined : makeCluster('ready'),
    clusterHeadService: w.clusterGone ? undefined : clusterHeadService(),
    rayJobHeadService: rayJobHeadService(),
    submitterJob: s.mode === 'K8sJobMode' ? k8sJob(w) : undefined,
    submitterPods: s.mode === 'K8sJobMode' ? pods(w) : [],
    headPods: s.mode === 'SidecarMode' && !sidecarHeadGone ? [sidecarHead(w)] : [],
    dashboard,
    driverNode: running ? { kind: step.driver, nodeId: DRIVER_NODE, ...(step.driver === 'inconclusive' ? { reason: 'HTTP 503' } : {}) } as DecisionInput['driverNode'] : { kind: 'not-checked' },
    memory: w.memory,
    settings: testSettings,
    now: at(w.now),
    random: () => 0.5,
  };
}

function k8sJob(w: World): K8sJob | undefined {
  const sub = w.submitter;
  if (sub.state === 'missing') return undefined;
  if (sub.state === 'running') return submitterJob();
  return sub.state === 'complete' ? submitterJob({ type: 'Complete', at: sub.at }) : submitterJob({ type: 'Failed', at: sub.at, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
}

function terminationMessage(w: World): string | undefined {
  const status = w.submitter.message;
  if (!status) return undefined;
  return formatTerminationMessage({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: status, exitCode: status === 'FAILED' ? 1 : 0, reason: 'x', endTime: w.rayEnd });
}

function pods(w: World): Pod[] {
  const sub = w.submitter;
  if (sub.state !== 'complete' && sub.state !== 'failed') return [];
  return [submitterPod(terminationMessage(w), sub.at, sub.state === 'complete' ? 0 : 1)];
}

function sidecarHead(w: World): Pod {
  const sub = w.submitter;
  const pod = sub.state === 'running' || sub.state === 'missing' ? headPod() : headPod({ exitCode: sub.state === 'complete' ? 0 : 1, finishedAt: sub.at, message: terminationMessage(w) });
  return w.headTerminating ? { ...pod, metadata: { ...pod.metadata, deletionTimestamp: iso(w.now) } } : pod;
}

/** The executor: write the status (unless the write is lost), then perform the actions. */
function act(w: World, step: Step, d: Decision): void {
  w.memory = d.memory;
  const written = d.statusChanged && !step.statusWriteLost;
  if (written) w.rayJob = { ...w.rayJob, status: d.status };
  if (d.statusChanged && d.writeStatusFirst && !written) return;
  for (const a of d.actions) {
    if (a.type === 'stopRayJob' && step.stopAcknowledged && (w.phase === 'PENDING' || w.phase === 'RUNNING')) {
      w.memory = { ...w.memory, stopAcknowledged: { jobId: a.jobId } };
      w.stopPending = true;
    }
    if (a.type === 'createSubmitterJob') {
      const env = a.job.spec?.template.spec?.containers?.find((c) => c.name === SUBMITTER_CONTAINER_NAME)?.env ?? [];
      w.submitter = { state: 'running', at: w.now, attachOnly: env.some((e) => e.name === 'RAYJOB_SUBMITTER_ATTACH_ONLY' && e.value === 'true'), message: undefined };
    }
    if (a.type === 'submitRayJob' && (w.phase === 'absent' || w.phase === 'lost')) submit(w);
  }
}
