// Step 1: wait until the dashboard says GCS is healthy, saying so every few seconds (as KubeRay's script does)
// and why it is not yet (connection refused, no such host, an HTTP status).
// Unbounded by default, as KubeRay's; --health-timeout bounds it (exit 4).
import { formatDuration } from '../cli/durations.ts';
import { outcome, type Outcome } from '../exit.ts';
import { statusLines } from '../output/status-lines.ts';
import type { RunContext } from './context.ts';
import { unhealthyReason } from './unhealthy-reason.ts';

export async function waitForHealth(ctx: RunContext): Promise<Outcome | undefined> {
  const { client, clock, reporter, config, pacing } = ctx;
  const started = clock.now();
  const printEveryMs = 2_000;
  let lastPrinted = -Infinity;
  for (;;) {
    if (ctx.signal.aborted) return outcome('Terminated', 'stopped while waiting for GCS');
    const remaining = config.healthTimeoutMs === undefined ? Infinity : config.healthTimeoutMs - (clock.now() - started);
    const health = await client.gcsHealth({ timeoutMs: Math.max(50, Math.min(10_000, remaining)) });
    if (health.kind === 'ok') {
      if (lastPrinted > -Infinity) reporter.line('info', statusLines.gcsHealthy(client.baseUrl), { event: 'gcs-healthy' });
      return undefined;
    }
    const waited = clock.now() - started;
    if (config.healthTimeoutMs !== undefined && waited >= config.healthTimeoutMs) {
      return outcome('Unreachable', `GCS did not become healthy within ${formatDuration(config.healthTimeoutMs)} (${unhealthyReason(health, client.baseUrl)})`);
    }
    if (clock.now() - lastPrinted >= printEveryMs) {
      lastPrinted = clock.now();
      const why = unhealthyReason(health, client.baseUrl);
      reporter.line('info', statusLines.waitingForGcs(client.baseUrl, why), { event: 'waiting-for-gcs', cause: why });
    }
    const left = config.healthTimeoutMs === undefined ? Infinity : config.healthTimeoutMs - (clock.now() - started);
    await clock.sleep(Math.max(0, Math.min(pacing.healthPollMs, left)), ctx.signal);
  }
}
