// The JobManager + JobSupervisor part of Ray: job records (the GCS KV), the status machine of
// ray-jobs-api.md §5, driver placement, processes, stop with SIGTERM -> grace -> SIGKILL, start timeout.
import { killGroup, startDriverProcess, type DriverProcess } from './driver-process.ts';
import { newSubmissionId } from './ids.ts';
import { randomBytes } from 'node:crypto';
// Subpath imports, not the barrel: the barrel loads the whole of zod, ~20% of an emulator's start in CPU (every Ray head pod in the tests starts one; issue #27).
import { isTerminalRayJobStatus } from '@rayjob/kube-model/ray-job-status';
import { requestsResources, type NodeTable, type ResourceDemand } from './nodes.ts';
import {
  cpuGpuResourceStartFailure,
  entrypointFailedMessage,
  lastLogLines,
  legacyFailedMessage,
  pendingMessage,
  runtimeEnvSetupLine,
  startTimeoutMessage,
  statusMessages,
  supervisorDiedMessage,
} from './ray-texts.ts';
import type { SubmitRequest } from './submit-request.ts';
import type { EmulatorTiming } from './timing.ts';
import type { RayFeatures } from './version.ts';

export type JobStatus = 'PENDING' | 'RUNNING' | 'STOPPED' | 'SUCCEEDED' | 'FAILED';

export const isTerminal = (s: JobStatus): boolean => isTerminalRayJobStatus(s);

export interface JobRecord {
  submissionId: string;
  entrypoint: string;
  status: JobStatus;
  message: string;
  errorType: string | null;
  startTime: number;
  endTime: number | null;
  metadata: Record<string, string> | null;
  runtimeEnv: Record<string, unknown> | null;
  driverAgentHttpAddress: string | null;
  driverNodeId: string | null;
  driverExitCode: number | null;
  demand: ResourceDemand;
  stopRequested: boolean;
  /** The head agent died: nothing reconciles this job any more (status frozen, ray#65037). */
  frozen: boolean;
  /** The supervisor actor is gone: the entrypoint's own exit no longer decides the status. */
  supervisorDead?: boolean;
  process?: DriverProcess;
  pid?: number;
}

export interface JobManagerDeps {
  nodes: NodeTable;
  timing: EmulatorTiming;
  shell: string;
  cwd: string | undefined;
  env: Record<string, string>;
  now: () => number;
  features: RayFeatures;
}

/** The JobManager's state: job records, their log "files", process groups and pending timers. */
interface JobTable {
  deps: JobManagerDeps;
  jobs: Map<string, JobRecord>;
  // Driver log "files". Like Ray's files they outlive a DELETE, and a resubmitted id appends to its file.
  logs: Map<string, string>;
  groups: Set<number>;
  timers: Set<NodeJS.Timeout>;
}

/** Runs `fn` after `ms`, as a timer `close()` can cancel. */
function later(table: JobTable, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    table.timers.delete(t);
    fn();
  }, ms);
  table.timers.add(t);
}

const appendLog = (table: JobTable, sid: string, text: string) => table.logs.set(sid, (table.logs.get(sid) ?? '') + text);

/** The only way a status changes; refuses to leave a terminal status, as Ray's JobInfoStorageClient does. */
function setStatus(table: JobTable, job: JobRecord, status: JobStatus, fields: Partial<JobRecord> = {}): void {
  if (isTerminal(job.status) || job.frozen) return;
  Object.assign(job, fields);
  job.status = status;
  if (isTerminal(status)) {
    job.endTime = table.deps.now();
    table.deps.nodes.release(job.driverNodeId, job.demand);
    // Anything the entrypoint left behind in its group goes with it (Ray's supervisor exits too).
    if (job.pid !== undefined) killGroup(job.pid);
  }
}

function newJobRecord(submissionId: string, request: SubmitRequest, now: number): JobRecord {
  const demand: ResourceDemand = {
    numCpus: request.numCpus, numGpus: request.numGpus, memory: request.memory, resources: request.resources,
  };
  return {
    submissionId,
    entrypoint: request.entrypoint,
    status: 'PENDING',
    message: pendingMessage(requestsResources(demand), Object.keys(request.runtimeEnv ?? {}).length > 0),
    errorType: null,
    startTime: now,
    endTime: null,
    metadata: request.metadata,
    runtimeEnv: request.runtimeEnv,
    driverAgentHttpAddress: null,
    driverNodeId: null,
    driverExitCode: null,
    demand,
    stopRequested: false,
    frozen: false,
  };
}

function submit(table: JobTable, request: SubmitRequest): { ok: true; submissionId: string } | { ok: false; duplicate: string } {
  const submissionId = request.submissionId ?? newSubmissionId();
  if (table.jobs.has(submissionId)) return { ok: false, duplicate: submissionId };
  const job = newJobRecord(submissionId, request, table.deps.now());
  table.jobs.set(submissionId, job);
  appendLog(table, submissionId, runtimeEnvSetupLine(new Date(table.deps.now())));
  later(table, table.deps.timing.pendingToRunningMs, () => tryStart(table, job));
  return { ok: true, submissionId };
}

/** A PENDING job whose time has come: placed on a node and RUNNING, or failed if it can never start. */
function tryStart(table: JobTable, job: JobRecord): void {
  const { deps } = table;
  if (job.status !== 'PENDING' || job.frozen || job.supervisorDead || table.jobs.get(job.submissionId) !== job) return;
  if (deps.now() - job.startTime < deps.timing.pendingToRunningMs) return;
  if ('CPU' in job.demand.resources || 'GPU' in job.demand.resources) {
    setStatus(table, job, 'FAILED', {
      errorType: 'JOB_SUPERVISOR_ACTOR_START_FAILURE',
      message: cpuGpuResourceStartFailure(job.submissionId),
    });
    return;
  }
  const node = deps.nodes.place(job.demand);
  if (!node) return; // no node can hold it: stays PENDING until resources appear or the start timeout
  deps.nodes.acquire(node, job.demand);
  setStatus(table, job, 'RUNNING', {
    message: statusMessages.running,
    driverNodeId: node.nodeId,
    driverAgentHttpAddress: `http://${node.ip}:52365`,
  });
  appendLog(table, job.submissionId, `Running entrypoint for job ${job.submissionId}: ${job.entrypoint}\n`);
  if (job.stopRequested) {
    // A stop queued while PENDING runs once the supervisor starts: RUNNING, then STOPPED (§3.5).
    later(table, deps.timing.exitDetectMs, () => setStatus(table, job, 'STOPPED', { message: statusMessages.stopped }));
    return;
  }
  startEntrypoint(table, job);
}

/** The entrypoint as a process group of its own; its exit decides the status a moment later, as Ray's polling does. */
function startEntrypoint(table: JobTable, job: JobRecord): void {
  const { deps } = table;
  const driver = startDriverProcess({
    shell: deps.shell,
    entrypoint: job.entrypoint,
    cwd: deps.cwd,
    env: deps.env,
    onOutput: (text) => {
      if (table.jobs.get(job.submissionId) === job) appendLog(table, job.submissionId, text);
    },
    onExit: (exitCode) => later(table, deps.timing.exitDetectMs, () => finish(table, job, exitCode)),
    onSpawnError: (error) =>
      setStatus(table, job, 'FAILED', {
        errorType: 'JOB_ENTRYPOINT_COMMAND_START_ERROR',
        message: `Traceback (most recent call last):\n  File "job_supervisor.py", line 280, in run\n${error.name}: ${error.message}\n`,
      }),
  });
  job.process = driver;
  job.pid = driver.pid;
  if (driver.pid !== undefined) table.groups.add(driver.pid);
}

function finish(table: JobTable, job: JobRecord, exitCode: number): void {
  if (job.supervisorDead) return;
  if (job.stopRequested) {
    setStatus(table, job, 'STOPPED', { message: statusMessages.stopped });
  } else if (exitCode === 0) {
    setStatus(table, job, 'SUCCEEDED', { message: statusMessages.succeeded, driverExitCode: 0 });
  } else {
    const tail = lastLogLines(table.logs.get(job.submissionId) ?? '');
    setStatus(table, job, 'FAILED', {
      errorType: 'JOB_ENTRYPOINT_COMMAND_ERROR',
      message: table.deps.features.driverExitCode ? entrypointFailedMessage(exitCode, tail) : legacyFailedMessage(tail),
      driverExitCode: exitCode,
    });
  }
}

/** `{stopped}` as Ray answers: true while a supervisor exists (also for PENDING, which stays PENDING). */
function stop(table: JobTable, job: JobRecord): boolean {
  if (isTerminal(job.status) || job.supervisorDead) return false;
  job.stopRequested = true;
  const driver = job.process;
  if (job.status === 'RUNNING' && driver?.alive()) {
    driver.signalGroup('SIGTERM');
    later(table, table.deps.timing.stopGraceMs, () => {
      if (driver.alive()) driver.signalGroup('SIGKILL');
    });
  }
  return true;
}

/** Periodic: place PENDING jobs that can now run, fail those past the start timeout. */
function tick(table: JobTable): void {
  const { deps } = table;
  for (const job of table.jobs.values()) {
    if (job.status !== 'PENDING' || job.frozen) continue;
    if (deps.now() - job.startTime >= deps.timing.startTimeoutMs) {
      setStatus(table, job, 'FAILED', {
        errorType: 'JOB_SUPERVISOR_ACTOR_START_TIMEOUT',
        message: startTimeoutMessage(deps.timing.startTimeoutMs, requestsResources(job.demand)),
      });
    } else {
      tryStart(table, job);
    }
  }
}

/**
 * The supervisor actor of a non-terminal job dies: its watchdog kills the entrypoint's group at once, and
 * the JobManager marks the job FAILED / JOB_SUPERVISOR_ACTOR_DIED shortly after (§7.5). The reason is
 * appended to the log without a trailing newline, as Ray does.
 */
function supervisorDied(table: JobTable, job: JobRecord): boolean {
  if (isTerminal(job.status) || job.frozen || job.supervisorDead) return false;
  job.supervisorDead = true;
  if (job.pid !== undefined) killGroup(job.pid);
  const { nodes } = table.deps;
  const ip = nodes.byId(job.driverNodeId ?? '')?.ip ?? nodes.head().ip;
  const message = supervisorDiedMessage(job.submissionId, ip, randomBytes(16).toString('hex'));
  later(table, table.deps.timing.supervisorDeathMs, () => {
    if (isTerminal(job.status) || job.frozen || table.jobs.get(job.submissionId) !== job) return;
    appendLog(table, job.submissionId, message);
    setStatus(table, job, 'FAILED', { errorType: 'JOB_SUPERVISOR_ACTOR_DIED', message });
  });
  return true;
}

/** killAgent: drivers on the head die with the raylet; jobs the head's JobManager owned are frozen. */
function freezeHeadJobs(table: JobTable, headNodeId: string): void {
  for (const job of table.jobs.values()) {
    if (isTerminal(job.status)) continue;
    if (job.status === 'PENDING' || job.driverNodeId === headNodeId) {
      job.frozen = true;
      if (job.pid !== undefined) killGroup(job.pid);
    }
  }
}

function killAll(table: JobTable): void {
  for (const pgid of table.groups) killGroup(pgid);
}

export function createJobManager(deps: JobManagerDeps) {
  const table: JobTable = { deps, jobs: new Map(), logs: new Map(), groups: new Set(), timers: new Set() };
  const { jobs, logs } = table;
  const ticker = setInterval(() => tick(table), deps.timing.schedulerTickMs);
  ticker.unref();

  return {
    submit: (request: SubmitRequest) => submit(table, request),
    stop: (job: JobRecord) => stop(table, job),
    get: (id: string) => jobs.get(id),
    list: () => [...jobs.values()],
    delete: (id: string) => jobs.delete(id),
    /** GET logs: empty until the job got a driver address (§3.7), then the whole file. */
    logsOf: (job: JobRecord) => (job.driverAgentHttpAddress === null ? '' : (logs.get(job.submissionId) ?? '')),
    rawLog: (id: string) => logs.get(id) ?? '',
    freezeHeadJobs: (headNodeId: string) => freezeHeadJobs(table, headNodeId),
    supervisorDied: (job: JobRecord) => supervisorDied(table, job),
    /** A worker node is lost: every supervisor placed there dies with it. */
    workerLost(nodeId: string): void {
      for (const job of jobs.values()) if (job.driverNodeId === nodeId) supervisorDied(table, job);
    },
    /** loseHead: a fresh head knows no jobs; every process dies with the old head. */
    forgetAll(): void {
      killAll(table);
      jobs.clear();
      logs.clear();
    },
    /** Wake PENDING jobs (a worker joined). */
    reschedule: () => tick(table),
    close(): void {
      clearInterval(ticker);
      for (const t of table.timers) clearTimeout(t);
      table.timers.clear();
      killAll(table);
    },
  };
}

export type JobManager = ReturnType<typeof createJobManager>;

/**
 * JobDetails exactly as Ray's REST answer: 15 keys, in Ray's order (§3.4). Older Rays: no
 * `driver_exit_code` before ~2.8, `error_type` always null before ~2.50.
 */
export function jobDetails(job: JobRecord, features: RayFeatures): Record<string, unknown> {
  const details: Record<string, unknown> = {
    type: 'SUBMISSION',
    job_id: null,
    submission_id: job.submissionId,
    driver_info: null,
    status: job.status,
    entrypoint: job.entrypoint,
    message: job.message,
    error_type: features.errorType ? job.errorType : null,
    start_time: job.startTime,
    end_time: job.endTime,
    metadata: job.metadata,
    runtime_env: job.runtimeEnv,
    driver_agent_http_address: job.driverAgentHttpAddress,
    driver_node_id: job.driverNodeId,
    driver_exit_code: job.driverExitCode,
  };
  if (!features.driverExitCode) delete details.driver_exit_code;
  return details;
}
