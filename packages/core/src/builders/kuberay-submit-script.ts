import { SubmitterEnv } from '../contracts/submitter-cli.ts';
import { SubmitterExitCode } from '../contracts/submitter-exit-codes.ts';
import { goJsonEscape, goQuote, shellQuote } from '../go-text/quoting.ts';
import { sortedJson } from './sorted-json.ts';
import type { SubmissionOptions } from './submitter-command.ts';

/**
 * KubeRay's submit script for a user's submitter template that gives no command (the Ray image's CLI runs
 * it): wait for GCS health, submit only if the ID is unknown, then follow the logs. One difference (addition
 * D): the entrypoint is never spliced raw into the script; it is wrapped as `bash -c '<entrypoint>'` so `;`,
 * `&&` and backticks run on the cluster, not in the submitter pod.
 *
 * `attachOnly` (addition H): Ray's CLI has no attach-only switch, so the script itself drops the submit branch:
 * an unknown ID prints why and exits 6 (our AttachTargetMissing) instead of submitting to a replacement head.
 * `ray job status` runs only after GCS answered healthy, so its failure means "not found" (or a dashboard that
 * broke in between, which a retry of the Job sorts out: the retry cannot submit either).
 */
export function kubeRaySubmitScript(
  address: string,
  jobId: string,
  options: SubmissionOptions,
  mode: { attachOnly: boolean; atRuntime?: boolean } = { attachOnly: false },
): string {
  const health = `${address}/api/gcs_healthz`;
  const healthCheck = `python -c "import urllib.request; r=urllib.request.urlopen('${health}', timeout=10); exit(0 if b'success' in r.read() else 1)"`;
  const tokens: string[] = [
    'until', healthCheck, '>/dev/null', '2>&1', ';', 'do', 'echo',
    goQuote(`Waiting for Ray Dashboard GCS to become healthy at ${address} ...`), ';', 'sleep', '2', ';', 'done', ';',
    'if', '!', 'ray', 'job', 'status', '--address', address, jobId, '>/dev/null', '2>&1', ';', 'then',
  ];
  const why = `Ray job ${jobId} is not known to ${address}; attach-only: it was seen before, so its head was lost. Not submitting it again.`;
  const refuse = ['echo', goQuote(why), '>&2', ';', 'exit', String(SubmitterExitCode.AttachTargetMissing), ';'];
  if (mode.attachOnly) {
    tokens.push(...refuse, 'fi', ';', 'ray', 'job', 'logs', '--address', address, '--follow', jobId);
    return tokens.join(' ');
  }
  if (mode.atRuntime) {
    // The mark arrives as env from the submitter-state ConfigMap (true or 1, any case, as our submitter reads it).
    tokens.push('case', `"\${${SubmitterEnv.attachOnly}:-}"`, 'in', '[Tt][Rr][Uu][Ee]|1)', ...refuse, ';;', 'esac', ';');
  }
  tokens.push('ray', 'job', 'submit', '--address', address, '--no-wait');
  if (options.runtimeEnv) tokens.push('--runtime-env-json', goQuote(goJsonEscape(sortedJson(options.runtimeEnv))));
  if (options.metadata) tokens.push('--metadata-json', goQuote(goJsonEscape(sortedJson(options.metadata))));
  if (jobId) tokens.push('--submission-id', jobId);
  if (options.entrypointNumCpus) tokens.push('--entrypoint-num-cpus', options.entrypointNumCpus.toFixed(6));
  if (options.entrypointNumGpus) tokens.push('--entrypoint-num-gpus', options.entrypointNumGpus.toFixed(6));
  if (options.entrypointResources) tokens.push('--entrypoint-resources', goQuote(options.entrypointResources));
  tokens.push('--', 'bash', '-c', shellQuote(options.entrypoint.trim()), ';');
  tokens.push('fi', ';', 'ray', 'job', 'logs', '--address', address, '--follow', jobId);
  return tokens.join(' ');
}
