/**
 * Running is one ordered table of named rules (addition E). These tests pin the order a reader sees, and that
 * the rules are pure functions of one observation.
 */
import { describe, expect, it } from 'vitest';
import { observeRunning } from '../../src/rayjob/running/observation.ts';
import { judgeRunning, NEXT, RUNNING_RULES } from '../../src/rayjob/running/rules.ts';
import { createContext } from '../../src/rayjob/context.ts';
import { found, healthyCluster, inState, makeInput, submitterJob } from './fixtures.ts';

const names = RUNNING_RULES.map((r) => r.name);

describe('Running\'s rule table', () => {
  it('runs in the order of evidence (issue 20) and addition E: suspend; the recorded result; rule 1\'s timers; rule 2; the head\'s fate; rule 3 and H; rules 4, F, 5', () => {
    expect(names).toEqual([
      'suspend',
      'recordedTerminalStands',
      'activeDeadline', 'transitionGracePeriod', 'statusCheckTimeout',
      'submitterFailedBeforeRunning',
      'clusterDeleted', 'headPodMissing', 'multipleHeadPods',
      'notFoundAfterSubmitter', 'headLost', 'notFoundBeforeSeen', 'dashboardUnreachable', 'notQueried',
      'resubmitted', 'submitterFinishedTimeout', 'driverLost', 'terminalMapping', 'live',
    ]);
  });

  it('judges every rule 1 timer before any other rule but suspend and the recorded result the timers cannot contradict', () => {
    const timers = ['activeDeadline', 'transitionGracePeriod', 'statusCheckTimeout'];
    const lastTimer = Math.max(...timers.map((t) => names.indexOf(t)));
    expect(names.slice(0, lastTimer + 1)).toEqual(['suspend', 'recordedTerminalStands', ...timers]);
  });

  it('names every rule once and says where it comes from', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const rule of RUNNING_RULES) expect(rule.source).toBeTruthy();
  });

  it('always ends in a verdict: the last rule never passes', () => {
    const o = observeRunning(createContext(makeInput({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING') })));
    expect(RUNNING_RULES.at(-1)?.judge(o)).not.toBe(NEXT);
    expect(judgeRunning(o, []).rule).toBe('none');
  });

  it('each rule is pure: judging the same observation twice gives the same outcome and leaves it unchanged', () => {
    const input = makeInput({ rayJob: inState('Running', 'K8sJobMode', {}, { activeDeadlineSeconds: 10 }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING') });
    const o = observeRunning(createContext(input));
    const before = JSON.stringify(o);
    for (const rule of RUNNING_RULES) expect(JSON.stringify(rule.judge(o))).toBe(JSON.stringify(rule.judge(o)));
    expect(JSON.stringify(o)).toBe(before);
    expect(judgeRunning(o).rule).toBe('activeDeadline');
  });
});
