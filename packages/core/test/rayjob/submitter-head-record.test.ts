/**
 * Campaign seeds 152, 239, 827: the first submitter submitted, then the head and the submitter pod (or Job) were
 * deleted before any Ray status was recorded, and the retry submitted again to the replacement head. The decision
 * asks for the head's IP to be recorded before the attempt's first submitter Job, in the same pass and before it.
 */
import { describe, expect, it } from 'vitest';
import { submitterStateKey, type DecisionInput, type OperatorMemory, type Pod, type RayJob } from '../../src/index.ts';
import { actionTypes, CLUSTER, healthyCluster, inState, JOB_ID, makeCluster, run, submitterJob } from './fixtures.ts';

const KEY = submitterStateKey('expectedHeadIp', CLUSTER, JOB_ID);
const head = (ip: string): Pod => ({ metadata: { name: `${CLUSTER}-head` }, status: { phase: 'Running', podIP: ip } }) as Pod;
const initializing = (mode: string, memory: OperatorMemory = {}): Partial<DecisionInput> & { rayJob: RayJob } =>
  ({ rayJob: inState('Initializing', mode as never), cluster: makeCluster('ready', { status: { state: 'ready', head: { podIP: '10.0.0.1' } } } as never), headPods: [head('10.0.0.7')], memory });

type Case = { name: string; input: () => Partial<DecisionInput> & { rayJob: RayJob }; actions: string[] };
const cases: Case[] = [
  { name: 'K8sJobMode, the first submitter Job: the head recorded, then the Job', input: () => initializing('K8sJobMode'), actions: ['recordSubmitterHead', 'createSubmitterJob'] },
  {
    name: 'K8sJobMode, the record already written this attempt (a Job create that failed or lagged): only the Job',
    input: () => initializing('K8sJobMode', { submitterHeadRecorded: { key: KEY } }),
    actions: ['createSubmitterJob'],
  },
  {
    name: 'K8sJobMode, a record of another attempt only: recorded again for this one',
    input: () => initializing('K8sJobMode', { submitterHeadRecorded: { key: submitterStateKey('expectedHeadIp', 'old', 'old') } }),
    actions: ['recordSubmitterHead', 'createSubmitterJob'],
  },
  {
    name: 'K8sJobMode, the head IP unknown (no head pod IP, no cluster status IP): the Job without a record',
    input: () => ({ ...initializing('K8sJobMode'), cluster: makeCluster('ready'), headPods: [] }),
    actions: ['createSubmitterJob'],
  },
  { name: 'K8sJobMode, the Job exists: nothing to record', input: () => ({ ...initializing('K8sJobMode'), submitterJob: submitterJob() }), actions: [] },
  { name: 'SidecarMode: its head is never recreated, no record', input: () => initializing('SidecarMode'), actions: [] },
  {
    name: 'K8sJobMode, Running, the Job deleted (recreated, addition B): the first record stands, none asked',
    input: () => ({ rayJob: inState('Running', 'K8sJobMode'), ...healthyCluster(), headPods: [head('10.0.0.9')], dashboard: { kind: 'found', info: { status: 'RUNNING' } } }),
    actions: ['createSubmitterJob', 'event:CreatedRayJobSubmitter'],
  },
];

describe('the head of the attempt\'s first submitter is recorded before its Job', () => {
  it.each(cases)('$name', ({ input, actions }) => {
    const d = run(input());
    expect(actionTypes(d).filter((t) => t !== 'event:CreatedRayJobSubmitter' || actions.includes(t))).toEqual(actions);
  });

  it('records the live head pod\'s IP under head-ip.<cluster>.<id> in <rayjob>-submitter-state, owned by the RayJob', () => {
    const d = run(initializing('K8sJobMode'));
    const record = d.actions.find((a) => a.type === 'recordSubmitterHead');
    expect(record).toMatchObject({
      type: 'recordSubmitterHead', key: KEY, headIP: '10.0.0.7',
      configMap: { metadata: { name: 'rayjob-sample-submitter-state', ownerReferences: [{ kind: 'RayJob', controller: true }] }, data: { [KEY]: '10.0.0.7' } },
    });
  });
});
