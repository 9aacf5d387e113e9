// SIGTERM/SIGINT start a graceful stop; a second one exits at once (controller-runtime's SetupSignalHandler).
import type { Logger } from '../log.ts';

export function onShutdownSignals(stop: () => void, log: Logger): () => void {
  let received = 0;
  const handler = (signal: NodeJS.Signals): void => {
    received++;
    if (received > 1) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    log.info({ signal }, 'shutdown signal received; finishing in-flight work');
    stop();
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
}
