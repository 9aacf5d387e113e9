// The least-privilege record of one test file's sandbox: the permissions the operator's API calls needed, taken
// from the sandbox's audit log and written under the run directory the RBAC check's globalSetup provides
// (least-privilege-check.ts unions every file's record and compares it with deploy/). The operator is told apart
// from the test's own calls, the sandbox's components and the pods by its User-Agent (it shares the admin token
// with the test in-process; in a pod it is also its ServiceAccount).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { AuditEvent } from '@rayjob/sandbox';
import { expect, inject } from 'vitest';
import { operatorUserAgent } from '../../src/user-agent.ts';
import { api, type Json } from './api.ts';
import type { OperatorCallRecord } from './least-privilege.ts';
import { neededPermissions, type PluralOf } from './rbac-derive.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each test file's record goes; unset when the RBAC check is not part of this run. */
    rbacRunDir: string;
  }
}

export const isOperatorCall = (e: AuditEvent): boolean => e.userAgent === operatorUserAgent;

/** Kind -> plural of the API groups the operator's owner references name, read from the sandbox's discovery. */
export async function discoverPlurals(url: string): Promise<PluralOf> {
  const resources = new Map<string, Json[]>();
  for (const [group, path] of [['', '/api/v1'], ['ray.io', '/apis/ray.io/v1'], ['batch', '/apis/batch/v1']] as const) {
    resources.set(group, (await api(url, 'GET', path)).body?.resources ?? []);
  }
  return (group, kind) => resources.get(group)?.find((r) => r.kind === kind && !String(r.name).includes('/'))?.name;
}

let sequence = 0;

/**
 * Writes the operator's needs from `audit` (read after the sandbox stopped: a watch is audited when it ends).
 * A no-op outside a run with the RBAC check (rbacRunDir not provided).
 */
export function saveOperatorCalls(audit: AuditEvent[], pluralOf: PluralOf): void {
  const dir = inject('rbacRunDir');
  if (!dir) return;
  const testPath = expect.getState().testPath ?? 'unknown.test.ts';
  const file = testPath.slice(testPath.lastIndexOf('/test/') + 1);
  const record: OperatorCallRecord = { file, needs: neededPermissions(audit.filter(isOperatorCall), pluralOf) };
  mkdirSync(dir, { recursive: true });
  sequence += 1;
  writeFileSync(join(dir, `${basename(file)}.${process.pid}.${sequence}.json`), `${JSON.stringify(record, null, 1)}\n`);
}
