// Driver liveness from the node table (`GET /nodes?view=summary`, served by NodeHead, unaffected by JobHead
// restarts). "Inconclusive is not dead" (status-correctness.md rule 4): any error, non-2xx, `result: false`
// or an unreadable body is inconclusive; only an answer that lists the node as DEAD, or omits it, is evidence.
import { NodeSummarySchema } from './schemas.ts';
import type { HttpOutcome } from './http-transport.ts';

export type NodeLiveness =
  | { kind: 'alive' }
  | { kind: 'dead' }
  /** The table answered and does not list the node (e.g. a fresh head that never knew it). */
  | { kind: 'missing' }
  | { kind: 'inconclusive'; reason: string };

export function judgeNodeLiveness(nodeId: string, outcome: HttpOutcome): NodeLiveness {
  if (outcome.kind === 'transport-error') return { kind: 'inconclusive', reason: `${outcome.cause}: ${outcome.message}` };
  if (outcome.status < 200 || outcome.status > 299) {
    return { kind: 'inconclusive', reason: `HTTP ${outcome.status} from /nodes` };
  }
  let json: unknown;
  try {
    json = JSON.parse(outcome.body);
  } catch {
    return { kind: 'inconclusive', reason: 'the node table is not JSON' };
  }
  const parsed = NodeSummarySchema.safeParse(json);
  if (!parsed.success) return { kind: 'inconclusive', reason: 'the node table does not have Ray\'s shape' };
  if (!parsed.data.result || !parsed.data.data) {
    return { kind: 'inconclusive', reason: `the node table answered result=false: ${parsed.data.msg ?? ''}` };
  }
  const entry = parsed.data.data.summary.find((n) => n.raylet.nodeId === nodeId);
  if (!entry) return { kind: 'missing' };
  if (entry.raylet.state === 'ALIVE') return { kind: 'alive' };
  if (entry.raylet.state === 'DEAD') return { kind: 'dead' };
  return { kind: 'inconclusive', reason: `node state "${entry.raylet.state}" is neither ALIVE nor DEAD` };
}
