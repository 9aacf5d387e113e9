// The lines existing log greps look for: Ray CLI's wording for submit and outcome, and KubeRay's light-weight
// submitter wording for the attach case. One function per line so the wording lives in one place.

export const statusLines = {
  /** KubeRay's wait line (greps keep matching its prefix), then why GCS is not healthy yet. */
  waitingForGcs: (address: string, why: string) => `Waiting for Ray Dashboard GCS to become healthy at ${address} ... (${why})`,
  gcsHealthy: (address: string) => `Ray Dashboard GCS is healthy at ${address}`,
  submitted: (id: string) => `Job '${id}' submitted successfully`,
  attached: (id: string) => `Job '${id}' has already been submitted, tailing logs.`,
  tailing: () => 'Tailing logs until the job exits (disable with --no-wait):',
  notWaiting: (id: string) => `Not waiting for job '${id}' (--no-wait).`,
  succeeded: (id: string) => `Job '${id}' succeeded`,
  failed: (id: string) => `Job '${id}' failed`,
  statusMessage: (message: string) => `Status message: ${message}`,
  stopped: (id: string) => `Job '${id}' was stopped`,
  reconnecting: (id: string, why: string) => `Log stream of job '${id}' ended (${why}) while the job is not finished; reconnecting`,
} as const;
