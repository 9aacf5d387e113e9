// metav1.MicroTime is decoded with Go layout "2006-01-02T15:04:05.000000Z07:00": exactly six fractional
// digits. A JS `new Date().toISOString()` (three digits) is rejected with 400 by a real server, so we do too.
import { formatKubeTime, formatMicroTime } from '@rayjob/kube-model';

const microTimeRe = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2})$/;
const timeRe = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Message for a bad MicroTime (as Go's time.Parse would word it), or undefined when fine. */
export function checkMicroTime(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !microTimeRe.test(value)) {
    return `unable to parse time ${JSON.stringify(value)}: parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05.000000Z07:00": cannot parse ${JSON.stringify(value)} as ".000000" (MicroTime needs exactly 6 fractional digits)`;
  }
  return undefined;
}

export function checkTime(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !timeRe.test(value)) {
    return `unable to parse time ${JSON.stringify(value)}: parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00"`;
  }
  return undefined;
}

/** Now as a MicroTime string (six digits). */
export const microNow = (now = Date.now()): string => formatMicroTime(now);

/** Now as a metav1.Time string (whole seconds). */
export const timeNow = (now = Date.now()): string => formatKubeTime(now);
