// The timeline the manual tests printed, one line per change:
//   [t] trigger | jobStatus deploymentStatus | submitter | cluster/pods | progress
// A line is printed when anything but the time changed, and for every trigger.
import type { Observation } from './observe.ts';

export interface Timeline {
  /** Records an observation; returns the line when it differs from the previous one. */
  observe(o: Observation): string | undefined;
  /** Records a trigger (a fault, or a step's note) at the given time. */
  trigger(atMs: number, what: string, o?: Observation): string;
  lines(): string[];
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1).padStart(6)}s`;

export function describeState(o: Observation): string {
  const status = `${o.jobStatus || '-'} ${o.deploymentStatus || '-'}${o.reason ? ` (${o.reason})` : ''}`;
  const cluster = !o.cluster
    ? 'no cluster'
    : `${o.cluster}${o.clusterExists ? '' : ' (gone)'} head:${o.headPhase ?? 'none'} workers:${o.workersRunning}`;
  const progress = o.progressOf > 0 ? `step ${o.progress}/${o.progressOf}` : '-';
  const submissions = o.submissions === undefined ? '' : ` submissions:${o.submissions}`;
  return `${status} | submitter ${o.submitter} | ${cluster} | ${progress}${submissions}`;
}

export function createTimeline(name: string, print: (line: string) => void = () => {}): Timeline {
  const all: string[] = [];
  let previous = '';
  const emit = (line: string): string => {
    all.push(line);
    print(`${name} ${line}`);
    return line;
  };
  return {
    observe(o) {
      const state = describeState(o);
      if (state === previous) return undefined;
      previous = state;
      return emit(`[${seconds(o.atMs)}]  | ${state}`);
    },
    trigger(atMs, what, o) {
      if (o) previous = describeState(o);
      return emit(`[${seconds(atMs)}] ${what} | ${o ? describeState(o) : ''}`);
    },
    lines: () => [...all],
  };
}
