// Hand-written usage: grouped as a user reads it, with the exit codes a pod spec author needs.

export const submitterVersion = '0.1.0';

export const usage = `ray-job-submitter ${submitterVersion}: submit a Ray job (or attach to it) and follow it to the end.
A drop-in for \`ray job submit\` and for KubeRay's light-weight submitter (/submitter) that never abandons a
live job: a closed log stream, a dashboard restart or a submitter restart does not end the job's story.

Usage:
  ray-job-submitter [flags] -- <entrypoint...>

  One argument after -- is the entrypoint verbatim (it may hold ;, &&, quotes, $VARS: the shell on the Ray
  head interprets it, the submitter does not). Several are shell-quoted and joined, as \`ray job submit\` does.

Where and what (as \`ray job submit\`):
  --address URL                 dashboard address (RAY_API_SERVER_ADDRESS, then RAY_ADDRESS win over it;
                                RAY_DASHBOARD_ADDRESS is the fallback)
  --submission-id ID            job id (or RAY_JOB_SUBMISSION_ID; both given and different: error).
                                Without one, the submitter makes one up so that its own retries attach.
  --no-wait                     exit 0 once the job is submitted or found
  --runtime-env FILE            runtime env as a YAML file
  --runtime-env-json JSON       runtime env as JSON (not with --runtime-env)
  --working-dir URI             remote working_dir (s3://, gs://, https://...); local directories are refused
  --metadata-json JSON          metadata, an object of strings
  --entrypoint-num-cpus N       --entrypoint-num-gpus N       --entrypoint-memory BYTES
  --entrypoint-resources JSON   custom resources, an object of numbers
  --headers JSON                extra HTTP headers on every request (or RAY_JOB_HEADERS)
  --verify true|false|CA_PATH   TLS verification for https addresses (default true)
  Auth: RAY_AUTH_TOKEN (or the file at RAY_AUTH_TOKEN_PATH) is sent as X-Ray-Authorization: Bearer.

The submitter's own. A run has three phases; each bound applies to one of them:
  1. Waiting for GCS health (the wait line says why it is not healthy yet)
  --health-timeout DURATION     give up (exit 4) if GCS is not healthy within this (default: wait forever,
                                as KubeRay's script). --max-unreachable does not bound this phase.
  2. Submitting or attaching, then 3. following the job to its end
  --max-unreachable DURATION    give up (exit 4) once the dashboard has failed to answer for this long in a
                                row (default 10m); any answer starts the count again
  --driver-lost-after DURATION  (phase 3) exit 5 once Ray says RUNNING but the driver's node has been DEAD or
                                missing this long, checked on its own timer (default 30s)
  --attach-only                 never submit: follow a job Ray already knows, exit 6 if it does not
                                (or RAYJOB_SUBMITTER_ATTACH_ONLY=true; the operator sets it once it saw the job);
                                needs a submission ID (--submission-id or RAY_JOB_SUBMISSION_ID), else exit 2
  --expected-head-ip IP         before submitting, ask Ray which node is the head; if its IP differs, the head
                                was replaced since this attempt started: exit 6, nothing submitted (or
                                RAYJOB_SUBMITTER_EXPECTED_HEAD_IP; the operator records the first head's IP);
                                an IPv4 or IPv6 address, else exit 2
  Output
  --log-format text|json        json: the submitter's own lines as JSON on stderr (job output stays raw)
  --termination-log PATH        where to write the final word (default: /dev/termination-log, only inside a
                                pod, i.e. with KUBERNETES_SERVICE_HOST set, and only if writable)
  --help, --version
  Durations: 30s, 10m, 1h, 1h30m, 500ms, or plain seconds.

Exit codes:
  0 SUCCEEDED or STOPPED (or --no-wait)    1 FAILED    2 bad usage or a request the dashboard rejected
  3 job not found after it was seen (head lost)    4 dashboard unreachable / GCS not healthy in time
  5 driver lost    6 --attach-only and the job is not found, or the head is not --expected-head-ip
  (nothing submitted)    70 internal error
  143 SIGTERM, 130 SIGINT (the Ray job is never stopped)
`;
