import { describe, expect, it } from 'vitest';
import {
  eventNotes, exitCodeName, FINAL_SUBMITTER_EXIT_CODES, formatTerminationMessage, needsDashboardQuery, needsDriverNodeCheck, parseTerminationMessage,
  parseAttachOnlyEnv, settingsFromEnv, SubmitterExitCode, submitterFlag, TERMINATION_MESSAGE_MAX_BYTES, type TerminationMessage,
} from '../../src/index.ts';
import { inState, makeRayJob } from '../rayjob/fixtures.ts';

const base: TerminationMessage = { kind: 'rayjob.io/submitter-result', version: 1, submissionId: 'id-1', lastStatus: 'RUNNING', exitCode: 3, reason: 'HeadLost' };

describe('termination message', () => {
  it('round-trips', () => {
    expect(parseTerminationMessage(formatTerminationMessage(base))).toEqual(base);
  });
  it.each([['empty', ''], ['undefined', undefined], ['not JSON', 'Error: boom'], ['someone else\'s JSON', '{"kind":"other"}'], ['bad status', JSON.stringify({ ...base, lastStatus: 'DONE' })]])(
    '%s is not ours: undefined, never an error', (_n, text) => expect(parseTerminationMessage(text)).toBeUndefined(),
  );
  it('stays within 4096 bytes by shortening the message at a character boundary', () => {
    const long = { ...base, message: 'é✓'.repeat(5000) };
    const text = formatTerminationMessage(long);
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(TERMINATION_MESSAGE_MAX_BYTES);
    const back = parseTerminationMessage(text);
    expect(back?.message?.endsWith('…')).toBe(true);
    expect(back?.message?.length).toBeGreaterThan(1000);
    expect({ ...back, message: undefined }).toEqual({ ...base, message: undefined });
  });
  it('rejects a message that breaks the schema', () => {
    expect(() => formatTerminationMessage({ ...base, submissionId: '' })).toThrow();
  });
});

describe('exit codes', () => {
  it('names codes and lists the final ones (addition H)', () => {
    expect(exitCodeName(5)).toBe('DriverLost');
    expect(exitCodeName(42)).toBeUndefined();
    expect(FINAL_SUBMITTER_EXIT_CODES).toEqual([SubmitterExitCode.JobFailed, SubmitterExitCode.HeadLost, SubmitterExitCode.Unreachable, SubmitterExitCode.DriverLost, SubmitterExitCode.AttachTargetMissing]);
  });
});

describe('the submitter CLI contract', () => {
  it.each([
    [undefined, { ok: true, attachOnly: false }], ['', { ok: true, attachOnly: false }], ['false', { ok: true, attachOnly: false }], ['0', { ok: true, attachOnly: false }],
    ['true', { ok: true, attachOnly: true }], ['TRUE', { ok: true, attachOnly: true }], [' 1 ', { ok: true, attachOnly: true }],
  ])('RAYJOB_SUBMITTER_ATTACH_ONLY=%j reads as %j', (value, expected) => expect(parseAttachOnlyEnv(value)).toEqual(expected));
  it('a value that is neither true nor false is an error naming the variable (a typo must not allow a second submission)', () => {
    expect(parseAttachOnlyEnv('yes please')).toEqual({ ok: false, error: 'RAYJOB_SUBMITTER_ATTACH_ONLY: "yes please" is neither true nor false' });
  });
  it('spells flags with two dashes', () => expect(submitterFlag('attach-only')).toBe('--attach-only'));
});

describe('settings from KubeRay\'s environment variables', () => {
  it.each([
    ['defaults', {}, { statusCheckTimeoutSeconds: 300, transitionGracePeriodSeconds: 300, deleteRayJobAfterJobFinishes: false, clusterDomain: 'cluster.local' }],
    ['valid numbers', { RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS: '120', RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS: '60' }, { statusCheckTimeoutSeconds: 120, transitionGracePeriodSeconds: 60 }],
    ['invalid status-check timeout falls back to 300', { RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS: 'invalid' }, { statusCheckTimeoutSeconds: 300 }],
    ['a status-check timeout <= 0 falls back to 300', { RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS: '0' }, { statusCheckTimeoutSeconds: 300 }],
    ['a grace period of 0 is kept (KubeRay)', { RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS: '0' }, { transitionGracePeriodSeconds: 0 }],
    ['switches are case-insensitive "true"', { DELETE_RAYJOB_CR_AFTER_JOB_FINISHES: 'TRUE', ENABLE_LOGIN_SHELL: 'true', ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE: 'True', CLUSTER_DOMAIN: 'example.org' }, { deleteRayJobAfterJobFinishes: true, enableLoginShell: true, enableRayHeadClusterIPService: true, clusterDomain: 'example.org' }],
  ])('%s', (_n, env, expected) => expect(settingsFromEnv(env)).toMatchObject(expected));
});

describe('observation plan', () => {
  it.each([
    ['Running', inState('Running'), true],
    ['Failed with a RUNNING job (addition C)', inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING' }), true],
    ['Complete with a terminal job', inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED' }), false],
    ['Initializing', inState('Initializing'), false],
    ['no job ID yet', makeRayJob(), false],
  ])('%s: dashboard query %s', (_n, rayJob, expected) => expect(needsDashboardQuery(rayJob)).toBe(expected));
  it('checks the driver node only for RUNNING with a node id', () => {
    expect(needsDriverNodeCheck({ status: 'RUNNING', driverNodeId: 'n' })).toBe(true);
    expect(needsDriverNodeCheck({ status: 'RUNNING' })).toBe(false);
    expect(needsDriverNodeCheck({ status: 'PENDING', driverNodeId: 'n' })).toBe(false);
    expect(needsDriverNodeCheck(undefined)).toBe(false);
  });
});

describe('event notes keep KubeRay\'s wording', () => {
  it.each([
    [eventNotes.createdRayCluster('ns', 'c'), 'Created RayCluster ns/c'],
    [eventNotes.failedToCreateRayCluster('ns', 'c', 'boom'), 'Failed to create RayCluster ns/c: boom'],
    [eventNotes.createdSubmitter('ns', 'j'), 'Created Kubernetes Job ns/j'],
    [eventNotes.failedToCreateSubmitter('ns', 'j', 'boom'), 'Failed to create new Kubernetes Job ns/j: boom'],
    [eventNotes.deletedSubmitter('ns', 'j'), 'Deleted submitter K8s Job ns/j'],
    [eventNotes.failedToDeleteSubmitter('ns', 'j', 'boom'), 'Failed to delete submitter K8s Job ns/j: boom'],
    [eventNotes.deletedCluster('ns', 'c'), 'Deleted cluster ns/c'],
    [eventNotes.failedToDeleteCluster('ns', 'c', 'boom'), 'Failed to delete cluster ns/c: boom'],
    [eventNotes.suspendedWorkers('ns', 'c'), 'Set the `suspend` field to true for all worker groups in cluster ns/c'],
    [eventNotes.failedToSuspendWorkers('ns', 'c', 'boom'), 'Failed to suspend worker groups in cluster ns/c: boom'],
    [eventNotes.createdService('ns', 's'), 'Created the service ns/s'],
    [eventNotes.failedToCreateService('ns', 's', 'boom'), 'Failed to create the service ns/s, boom'],
    [eventNotes.updatedService('ns', 's'), 'Updated the service ns/s'],
    [eventNotes.failedToUpdateService('ns', 's', 'boom'), 'Failed to update the service ns/s, boom'],
    [eventNotes.stoppedRayJob('ns', 'r', 'id', 'why'), 'Stopped Ray job id of RayJob ns/r: why'],
  ])('%s', (actual, expected) => expect(actual).toBe(expected));
});
