// JSON logs with pino. Every reconcile logs with controller, namespace, name and reconcileID (the keys
// controller-runtime uses), so one reconcile's lines can be found together.
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: string;
  /** Where lines go; stdout by default (tests pass a stream to read them). */
  destination?: NodeJS.WritableStream;
  name?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const opts = {
    level: options.level ?? 'info',
    ...(options.name !== undefined && { name: options.name }),
    // Headers and tokens never reach a log line, whatever a caller passes in.
    redact: { paths: ['authorization', '*.authorization', 'headers.authorization', 'token', '*.token'], censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return options.destination ? pino(opts, options.destination) : pino(opts);
}

export const silentLogger: Logger = pino({ level: 'silent' });

export function newReconcileId(): string {
  return randomUUID();
}
