// The fault knobs of ray-jobs-api.md §9, each reproducing an observed Ray behaviour, over the emulated head's
// parts; the fault state they change is what the dashboard's routes and the tail hub read.
import type { DashboardServer } from './dashboard-server.ts';
import type { JobManager } from './job-manager.ts';
import type { TailHub } from './log-tail-server.ts';
import type { NodeTable } from './nodes.ts';
import type { FaultGate } from './request-gate.ts';
import type { EmulatorTiming } from './timing.ts';

export interface RayEmulatorFaults {
  /** Tails close 1000, JobHead routes answer 500 for downForMs, jobs keep running. Resolves once it is down. */
  restartJobHead(opts?: { downForMs?: number }): Promise<void>;
  /** Head drivers killed, their jobs frozen RUNNING, agent-routed calls 500, head node DEAD after a delay. */
  killAgent(): Promise<void>;
  /** Connection refused; open tails cut without a close frame (1006). Jobs keep running. */
  stopDashboard(): Promise<void>;
  /** Listens again on the same port. */
  startDashboard(): Promise<void>;
  /** A fresh head: every job forgotten, every process killed, open connections cut, a new head node id. */
  loseHead(): Promise<void>;
  /** The job's supervisor actor dies: entrypoint killed, FAILED / JOB_SUPERVISOR_ACTOR_DIED ~1.3 s later. */
  killSupervisor(submissionId: string): Promise<void>;
  /**
   * A worker node is lost: DEAD in `/nodes` after nodeDeathDelayMs; jobs whose driver ran there fail with
   * JOB_SUPERVISOR_ACTOR_DIED; their logs and tails fail (the node's agent is gone).
   */
  killWorkerNode(nodeId: string): Promise<void>;
  /** ray#46413: the final chunk of a tail is never sent (GET logs still has it). */
  dropLastLogChunk(enabled: boolean): void;
  /** Delays every answer by ms (0 = off). */
  slowAnswers(ms: number): void;
  /** The next `count` requests (any path, upgrades included) answer `status` (default 500). */
  fail5xx(count: number, status?: number): void;
}

/** What the faults have done to the head so far; `timers` are the pending node deaths `stop()` cancels. */
export interface HeadFaultState {
  dropLast: boolean;
  jobHeadDownUntil: number;
  agentDown: boolean;
  lostWorkers: Set<string>;
  timers: Set<NodeJS.Timeout>;
}

export const newHeadFaultState = (): HeadFaultState => ({
  dropLast: false, jobHeadDownUntil: 0, agentDown: false, lostWorkers: new Set(), timers: new Set(),
});

export interface EmulatedHead {
  fault: HeadFaultState;
  jobs: JobManager;
  nodes: NodeTable;
  tails: TailHub;
  gate: FaultGate;
  server: DashboardServer;
  timing: EmulatorTiming;
  now: () => number;
  host: string;
  port: number;
}

/** The node is marked DEAD after nodeDeathDelayMs, as the GCS does once its health checks fail. */
function markDeadLater(head: EmulatedHead, nodeId: string, onlyIf: () => boolean = () => true): void {
  const { timers } = head.fault;
  const t = setTimeout(() => {
    timers.delete(t);
    if (onlyIf()) head.nodes.markDead(nodeId);
  }, head.timing.nodeDeathDelayMs);
  timers.add(t);
}

async function killAgent(head: EmulatedHead): Promise<void> {
  const { fault, jobs, nodes, tails } = head;
  if (fault.agentDown) return;
  fault.agentDown = true;
  const headId = nodes.head().nodeId;
  jobs.freezeHeadJobs(headId);
  tails.closeWhere((t) => jobs.get(t.submissionId)?.driverNodeId === headId);
  markDeadLater(head, headId, () => nodes.head().nodeId === headId);
}

async function killWorkerNode(head: EmulatedHead, nodeId: string): Promise<void> {
  const { fault, jobs, nodes, tails } = head;
  const node = nodes.byId(nodeId);
  if (!node || node.isHead) throw new Error(`killWorkerNode: ${nodeId} is not a worker of this emulator`);
  if (fault.lostWorkers.has(nodeId)) return;
  fault.lostWorkers.add(nodeId);
  nodes.markLost(nodeId);
  jobs.workerLost(nodeId);
  tails.closeWhere((t) => jobs.get(t.submissionId)?.driverNodeId === nodeId);
  markDeadLater(head, nodeId);
}

export function createEmulatorFaults(head: EmulatedHead): RayEmulatorFaults {
  const { fault, jobs, nodes, tails, gate, server } = head;
  return {
    async restartJobHead(opts = {}) {
      fault.jobHeadDownUntil = head.now() + (opts.downForMs ?? head.timing.jobHeadRestartMs);
      tails.closeWhere(() => true);
    },
    killAgent: () => killAgent(head),
    async killSupervisor(submissionId) {
      const job = jobs.get(submissionId);
      if (!job) throw new Error(`killSupervisor: no job ${submissionId}`);
      jobs.supervisorDied(job);
    },
    killWorkerNode: (nodeId) => killWorkerNode(head, nodeId),
    async stopDashboard() {
      await server.close();
    },
    async startDashboard() {
      if (!server.listening()) await server.listen(head.host, head.port);
    },
    async loseHead() {
      jobs.forgetAll();
      nodes.replaceHead();
      fault.lostWorkers.clear();
      fault.agentDown = false;
      fault.jobHeadDownUntil = 0;
      server.cutConnections();
    },
    dropLastLogChunk(enabled) {
      fault.dropLast = enabled;
    },
    slowAnswers(ms) {
      gate.slowAnswers(ms);
    },
    fail5xx(count, status = 500) {
      gate.fail5xx(count, status);
    },
  };
}
