// Ray's answer texts (ray-jobs-api.md §2, §3, §5). Error bodies are Python tracebacks; only their last lines
// matter to clients, so the frames here are representative, not byte-identical (a listed cosmetic difference).

export const aiohttp500 = '500 Internal Server Error\n\nServer got itself in trouble';
export const aiohttp404 = '404: Not Found';
export const aiohttp405 = '405: Method Not Allowed';

export const authMissing = 'Unauthorized: Missing authentication token';
export const authInvalid = 'Forbidden: Invalid authentication token';

export function browserMethodRefused(method: string): string {
  return `'${method}' method not allowed for browser traffic.`;
}

export function jobNotFound(id: string): string {
  return `Job ${id} does not exist`;
}

function traceback(frames: ReadonlyArray<[file: string, line: number, fn: string, code: string]>, last: string): string {
  const body = frames.map(([file, line, fn, code]) => `  File "${file}", line ${line}, in ${fn}\n    ${code}\n`).join('');
  return `Traceback (most recent call last):\n${body}${last}\n`;
}

const pkg = '/home/ray/anaconda3/lib/python3.11/site-packages/ray/dashboard/modules/job';

/** A 400 from JobHead's own request parsing (JobSubmitRequest construction). */
export function submitRequestTypeError(message: string): string {
  return traceback(
    [
      [`${pkg}/utils.py`, 212, 'parse_and_validate_request', 'return validate_request_type(json_data, request_type)'],
      [`${pkg}/common.py`, 519, 'validate_request_type', 'return request_type(**json_data)'],
    ],
    `TypeError: ${message}`,
  );
}

/** JobHead wrapping an error the head agent answered: always HTTP 500 on the outside. */
export function wrappedAgentError(agentStatus: number, agentBody: string): string {
  return traceback(
    [
      [`${pkg}/job_head.py`, 412, 'submit_job', 'resp = await job_agent_client.submit_job_internal(submit_request)'],
      [`${pkg}/job_head.py`, 118, 'submit_job_internal', 'await self._raise_error(resp)'],
      [`${pkg}/job_head.py`, 101, '_raise_error', 'raise RuntimeError(f"Request failed with status code {status}: {error_text}.")'],
    ],
    `RuntimeError: Request failed with status code ${agentStatus}: ${agentBody}.`,
  );
}

export function duplicateSubmission(submissionId: string): string {
  return wrappedAgentError(
    400,
    traceback(
      [
        [`${pkg}/job_agent.py`, 61, 'submit_job', 'submission_id = await self.get_job_manager().submit_job('],
        [`${pkg}/job_manager.py`, 540, 'submit_job', 'raise ValueError('],
      ],
      `ValueError: Job with submission_id ${submissionId} already exists. Please use a different submission_id.`,
    ),
  );
}

export function deleteNonTerminal(submissionId: string, status: string): string {
  return wrappedAgentError(
    500,
    traceback(
      [
        [`${pkg}/job_agent.py`, 158, 'delete_job', 'deleted = await self.get_job_manager().delete_job(job.submission_id)'],
        [`${pkg}/job_manager.py`, 689, 'delete_job', 'raise RuntimeError('],
      ],
      `RuntimeError: Attempted to delete job '${submissionId}', but it is in a non-terminal state ${status}.`,
    ),
  );
}

/**
 * The agent is gone: every agent-routed call fails like this (observed, FINDINGS.md §8: the chained
 * ConnectionRefusedError, then aiohttp's ClientConnectorError).
 */
export function agentUnreachable(ip: string): string {
  const aiohttp = '/home/ray/anaconda3/lib/python3.11/site-packages/aiohttp';
  const refused = traceback(
    [
      [`${aiohttp}/connector.py`, 1112, '_wrap_create_connection', 'sock = await aiohappyeyeballs.start_connection('],
      ['/home/ray/anaconda3/lib/python3.11/asyncio/selector_events.py', 641, '_sock_connect_cb', 'raise OSError(err, f"Connect call failed {address}")'],
    ],
    `ConnectionRefusedError: [Errno 111] Connect call failed ('${ip}', 52365)`,
  );
  const connector = traceback(
    [
      [`${pkg}/job_head.py`, 405, 'submit_job', 'resp = await job_agent_client.submit_job_internal(submit_request)'],
      [`${aiohttp}/connector.py`, 1117, '_wrap_create_connection', 'raise client_error(req.connection_key, exc) from exc'],
    ],
    `aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host ${ip}:52365 ssl:default [Connect call failed ('${ip}', 52365)]`,
  );
  return `${refused}\nThe above exception was the direct cause of the following exception:\n\n${connector}`;
}

export const submissionOnly = {
  stop: 'Can only stop submission type jobs',
  delete: 'Can only delete submission type jobs',
  logs: 'Can only get logs of submission type jobs',
};

// --- status messages (§5) ---

export const statusMessages = {
  running: 'Job is currently running.',
  succeeded: 'Job finished successfully.',
  stopped: 'Job was intentionally stopped.',
};

export function pendingMessage(requestsResources: boolean, hasRuntimeEnv: boolean): string {
  let message = 'Job has not started yet.';
  if (requestsResources) {
    message += ' It may be waiting for resources (CPUs, GPUs, memory, custom resources) to become available.';
  }
  if (hasRuntimeEnv) message += ' It may be waiting for the runtime environment to be set up.';
  return message;
}

/** Python's str() of a float: 900.0, 8.0, 1.5. */
export function pythonFloat(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}.0` : String(seconds);
}

export function startTimeoutMessage(timeoutMs: number, requestsResources: boolean): string {
  let message =
    `Job supervisor actor failed to start within ${pythonFloat(timeoutMs / 1000)} seconds. ` +
    'This timeout can be configured by setting the environment variable RAY_JOB_START_TIMEOUT_SECONDS.';
  if (requestsResources) {
    message +=
      " This may be because the job entrypoint's specified resources (entrypoint_num_cpus, entrypoint_num_gpus, " +
      'entrypoint_resources, entrypoint_memory)aren\'t available on the cluster. Try checking the cluster\'s ' +
      'available resources with `ray status` and specifying fewer resources for the job entrypoint.';
  }
  return message;
}

export function entrypointFailedMessage(exitCode: number, logTail: string): string {
  if (logTail === '') return `Job entrypoint command failed with exit code ${exitCode}. No logs available.`;
  return `Job entrypoint command failed with exit code ${exitCode}, last available logs (truncated to 20,000 chars):\n${logTail}`;
}

/** The supervisor actor's worker died (OOM, SIGKILL, node loss); §5 JOB_SUPERVISOR_ACTOR_DIED. */
export function supervisorDiedMessage(submissionId: string, ip: string, actorId: string): string {
  return (
    'Job supervisor actor died: The actor died unexpectedly before finishing this task.\n' +
    `\tclass_name: JobSupervisor\n\tactor_id: ${actorId}\n\tname: _ray_internal_job_actor_${submissionId}\n` +
    `\tnamespace: SUPERVISOR_ACTOR_RAY_NAMESPACE\n\tip: ${ip}\n` +
    'The actor is dead because its worker process has died. Worker exit type: UNEXPECTED_SYSTEM_EXIT ' +
    'Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.'
  );
}

/** Before ~2.8 (no driver exit code yet). */
export function legacyFailedMessage(logTail: string): string {
  if (logTail === '') return 'Job failed.';
  return `Job failed due to an application error, last available logs (truncated to 20,000 chars):\n${logTail}`;
}

export function cpuGpuResourceStartFailure(submissionId: string): string {
  const err = "Use the 'num_cpus' and 'num_gpus' keyword instead of 'CPU' and 'GPU' in 'resources' keyword";
  return (
    `Failed to start supervisor actor ${submissionId}: '${err}'. Full traceback:\n` +
    traceback([[`${pkg}/job_manager.py`, 603, 'submit_job', 'supervisor = self._supervisor_actor_cls.options('], ['/home/ray/anaconda3/lib/python3.11/site-packages/ray/_private/utils.py', 316, 'resources_from_ray_options', 'raise ValueError(']], `ValueError: ${err}`)
  );
}

/** The last 10 lines of the log, capped at 20 000 characters, as the supervisor quotes them. */
export function lastLogLines(log: string, lines = 10, maxChars = 20_000): string {
  if (log === '') return '';
  const parts = log.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return parts.slice(-lines).join('').slice(-maxChars);
}

/** The line the JobManager writes first into every driver log (§3.7). */
export function runtimeEnvSetupLine(now: Date): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp =
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ` +
    `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())},${pad(now.getMilliseconds(), 3)}`;
  return `${stamp}\tINFO job_manager.py:583 -- Runtime env is setting up.\n`;
}
