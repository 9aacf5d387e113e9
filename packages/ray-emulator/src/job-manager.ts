// The JobManager + JobSupervisor part of Ray: job records (the GCS KV), the status machine of
// ray-jobs-api.md §5, driver placement, processes, stop with SIGTERM -> grace -> SIGKILL, start timeout.
import { killGroup, startDriverProcess, type DriverProcess } from './driver-process.ts';
import { newSubmissionId } from './ids.ts';
import { randomBytes } from 'node:crypto';
import { isTerminalRayJobStatus } from '@rayjob/kube-model';
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

// structure-exception(function-lines createJobManager): over the limit before #21 set it; the split is left for a follow-up of #21
export function createJobManager(deps: JobManagerDeps) {
  const { nodes, timing } = deps;
  const jobs = new Map<string, JobRecord>();
  // Driver log "files". Like Ray's files they outlive a DELETE, and a resubmitted id appends to its file.
  const logs = new Map<string, string>();
  const groups = new Set<number>();
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const appendLog = (sid: string, text: string) => logs.set(sid, (logs.get(sid) ?? '') + text);

  /** The only way a status changes; refuses to leave a terminal status, as Ray's JobInfoStorageClient does. */
  function setStatus(job: JobRecord, status: JobStatus, fields: Partial<JobRecord> = {}): void {
    if (isTerminal(job.status) || job.frozen) return;
    Object.assign(job, fields);
    job.status = status;
    if (isTerminal(status)) {
      job.endTime = deps.now();
      nodes.release(job.driverNodeId, job.demand);
      // Anything the entrypoint left behind in its group goes with it (Ray's supervisor exits too).
      if (job.pid !== undefined) killGroup(job.pid);
    }
  }

  function submit(request: SubmitRequest): { ok: true; submissionId: string } | { ok: false; duplicate: string } {
    const submissionId = request.submissionId ?? newSubmissionId();
    if (jobs.has(submissionId)) return { ok: false, duplicate: submissionId };
    const demand: ResourceDemand = {
      numCpus: request.numCpus, numGpus: request.numGpus, memory: request.memory, resources: request.resources,
    };
    const job: JobRecord = {
      submissionId,
      entrypoint: request.entrypoint,
      status: 'PENDING',
      message: pendingMessage(requestsResources(demand), Object.keys(request.runtimeEnv ?? {}).length > 0),
      errorType: null,
      startTime: deps.now(),
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
    jobs.set(submissionId, job);
    appendLog(submissionId, runtimeEnvSetupLine(new Date(deps.now())));
    later(timing.pendingToRunningMs, () => tryStart(job));
    return { ok: true, submissionId };
  }

  function tryStart(job: JobRecord): void {
    if (job.status !== 'PENDING' || job.frozen || job.supervisorDead || jobs.get(job.submissionId) !== job) return;
    if (deps.now() - job.startTime < timing.pendingToRunningMs) return;
    if ('CPU' in job.demand.resources || 'GPU' in job.demand.resources) {
      setStatus(job, 'FAILED', {
        errorType: 'JOB_SUPERVISOR_ACTOR_START_FAILURE',
        message: cpuGpuResourceStartFailure(job.submissionId),
      });
      return;
    }
    const node = nodes.place(job.demand);
    if (!node) return; // no node can hold it: stays PENDING until resources appear or the start timeout
    nodes.acquire(node, job.demand);
    setStatus(job, 'RUNNING', {
      message: statusMessages.running,
      driverNodeId: node.nodeId,
      driverAgentHttpAddress: `http://${node.ip}:52365`,
    });
    appendLog(job.submissionId, `Running entrypoint for job ${job.submissionId}: ${job.entrypoint}\n`);
    if (job.stopRequested) {
      // A stop queued while PENDING runs once the supervisor starts: RUNNING, then STOPPED (§3.5).
      later(timing.exitDetectMs, () => setStatus(job, 'STOPPED', { message: statusMessages.stopped }));
      return;
    }
    const driver = startDriverProcess({
      shell: deps.shell,
      entrypoint: job.entrypoint,
      cwd: deps.cwd,
      env: deps.env,
      onOutput: (text) => {
        if (jobs.get(job.submissionId) === job) appendLog(job.submissionId, text);
      },
      onExit: (exitCode) => later(timing.exitDetectMs, () => finish(job, exitCode)),
      onSpawnError: (error) =>
        setStatus(job, 'FAILED', {
          errorType: 'JOB_ENTRYPOINT_COMMAND_START_ERROR',
          message: `Traceback (most recent call last):\n  File "job_supervisor.py", line 280, in run\n${error.name}: ${error.message}\n`,
        }),
    });
    job.process = driver;
    job.pid = driver.pid;
    if (driver.pid !== undefined) groups.add(driver.pid);
  }

  function finish(job: JobRecord, exitCode: number): void {
    if (job.supervisorDead) return;
    if (job.stopRequested) {
      setStatus(job, 'STOPPED', { message: statusMessages.stopped });
    } else if (exitCode === 0) {
      setStatus(job, 'SUCCEEDED', { message: statusMessages.succeeded, driverExitCode: 0 });
    } else {
      const tail = lastLogLines(logs.get(job.submissionId) ?? '');
      setStatus(job, 'FAILED', {
        errorType: 'JOB_ENTRYPOINT_COMMAND_ERROR',
        message: deps.features.driverExitCode ? entrypointFailedMessage(exitCode, tail) : legacyFailedMessage(tail),
        driverExitCode: exitCode,
      });
    }
  }

  /** `{stopped}` as Ray answers: true while a supervisor exists (also for PENDING, which stays PENDING). */
  function stop(job: JobRecord): boolean {
    if (isTerminal(job.status) || job.supervisorDead) return false;
    job.stopRequested = true;
    const driver = job.process;
    if (job.status === 'RUNNING' && driver?.alive()) {
      driver.signalGroup('SIGTERM');
      later(timing.stopGraceMs, () => {
        if (driver.alive()) driver.signalGroup('SIGKILL');
      });
    }
    return true;
  }

  /** Periodic: place PENDING jobs that can now run, fail those past the start timeout. */
  function tick(): void {
    for (const job of jobs.values()) {
      if (job.status !== 'PENDING' || job.frozen) continue;
      if (deps.now() - job.startTime >= timing.startTimeoutMs) {
        setStatus(job, 'FAILED', {
          errorType: 'JOB_SUPERVISOR_ACTOR_START_TIMEOUT',
          message: startTimeoutMessage(timing.startTimeoutMs, requestsResources(job.demand)),
        });
      } else {
        tryStart(job);
      }
    }
  }
  const ticker = setInterval(tick, timing.schedulerTickMs);
  ticker.unref();

  /**
   * The supervisor actor of a non-terminal job dies: its watchdog kills the entrypoint's group at once, and
   * the JobManager marks the job FAILED / JOB_SUPERVISOR_ACTOR_DIED shortly after (§7.5). The reason is
   * appended to the log without a trailing newline, as Ray does.
   */
  function supervisorDied(job: JobRecord): boolean {
    if (isTerminal(job.status) || job.frozen || job.supervisorDead) return false;
    job.supervisorDead = true;
    if (job.pid !== undefined) killGroup(job.pid);
    const ip = nodes.byId(job.driverNodeId ?? '')?.ip ?? nodes.head().ip;
    const message = supervisorDiedMessage(job.submissionId, ip, randomBytes(16).toString('hex'));
    later(timing.supervisorDeathMs, () => {
      if (isTerminal(job.status) || job.frozen || jobs.get(job.submissionId) !== job) return;
      appendLog(job.submissionId, message);
      setStatus(job, 'FAILED', { errorType: 'JOB_SUPERVISOR_ACTOR_DIED', message });
    });
    return true;
  }

  /** killAgent: drivers on the head die with the raylet; jobs the head's JobManager owned are frozen. */
  function freezeHeadJobs(headNodeId: string): void {
    for (const job of jobs.values()) {
      if (isTerminal(job.status)) continue;
      if (job.status === 'PENDING' || job.driverNodeId === headNodeId) {
        job.frozen = true;
        if (job.pid !== undefined) killGroup(job.pid);
      }
    }
  }

  function killAll(): void {
    for (const pgid of groups) killGroup(pgid);
  }

  return {
    submit,
    stop,
    get: (id: string) => jobs.get(id),
    list: () => [...jobs.values()],
    delete: (id: string) => jobs.delete(id),
    /** GET logs: empty until the job got a driver address (§3.7), then the whole file. */
    logsOf: (job: JobRecord) => (job.driverAgentHttpAddress === null ? '' : (logs.get(job.submissionId) ?? '')),
    rawLog: (id: string) => logs.get(id) ?? '',
    freezeHeadJobs,
    supervisorDied,
    /** A worker node is lost: every supervisor placed there dies with it. */
    workerLost(nodeId: string): void {
      for (const job of jobs.values()) if (job.driverNodeId === nodeId) supervisorDied(job);
    },
    /** loseHead: a fresh head knows no jobs; every process dies with the old head. */
    forgetAll(): void {
      killAll();
      jobs.clear();
      logs.clear();
    },
    /** Wake PENDING jobs (a worker joined). */
    reschedule: tick,
    close(): void {
      clearInterval(ticker);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      killAll();
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
