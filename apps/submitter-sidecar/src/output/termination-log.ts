// The final word (addition A): core's TerminationMessageSchema, written where Kubernetes reads the container's
// termination message. Written synchronously: it must land even on the SIGTERM path, which exits at once.
import { formatTerminationMessage, type TerminationMessage } from '@rayjob/core';
import type { Redactor } from '@rayjob/ray-client';

// Not an ES import of node:fs: see cli/load-config.ts.
const { writeFileSync } = process.getBuiltinModule('node:fs');

export type TerminationWrite = { ok: true } | { ok: false; error: string };

export function writeTerminationLog(path: string, message: TerminationMessage, redact: Redactor): TerminationWrite {
  const safe: TerminationMessage = {
    ...message,
    ...(message.message !== undefined ? { message: redact(message.message) } : {}),
  };
  try {
    writeFileSync(path, redact(formatTerminationMessage(safe)));
    return { ok: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, error: `cannot write the termination log ${path}: ${code}` };
  }
}
