// Which node is the head, from the node table (`GET /nodes?view=summary`): the entry whose raylet says
// `isHeadNode`, at its `raylet.nodeManagerAddress` (the entry's `ip` when that is absent). The submitter compares
// it with the head its attempt started on (addition H). A missing endpoint and a table without a head entry are
// told apart from an unreachable dashboard: the caller may go on without the check, but must retry the latter.
import type { HttpOutcome } from './http-transport.ts';
import { NodeSummarySchema } from './schemas.ts';

export type HeadNodeAnswer =
  | { kind: 'head'; ip: string; nodeId: string }
  /** The table answered and names no head (or no head with an address). */
  | { kind: 'no-head' }
  /** 404: this server has no node table. */
  | { kind: 'no-endpoint' }
  /** Any other non-2xx or an unreadable body: the table says nothing usable. */
  | { kind: 'unreadable'; reason: string }
  /** Transport errors, 5xx and `result: false` (a dashboard still starting): ask again. */
  | { kind: 'unavailable'; reason: string };

export function judgeHeadNode(outcome: HttpOutcome): HeadNodeAnswer {
  if (outcome.kind === 'transport-error') return { kind: 'unavailable', reason: `${outcome.cause}: ${outcome.message}` };
  if (outcome.status === 404) return { kind: 'no-endpoint' };
  if (outcome.status >= 500) return { kind: 'unavailable', reason: `HTTP ${outcome.status} from /nodes` };
  if (outcome.status < 200 || outcome.status > 299) return { kind: 'unreadable', reason: `HTTP ${outcome.status} from /nodes` };
  let json: unknown;
  try {
    json = JSON.parse(outcome.body);
  } catch {
    return { kind: 'unreadable', reason: 'the node table is not JSON' };
  }
  const parsed = NodeSummarySchema.safeParse(json);
  if (!parsed.success) return { kind: 'unreadable', reason: 'the node table does not have Ray\'s shape' };
  if (!parsed.data.result || !parsed.data.data) return { kind: 'unavailable', reason: `the node table answered result=false: ${parsed.data.msg ?? ''}` };
  const heads = parsed.data.data.summary.filter((n) => n.raylet['isHeadNode'] === true);
  // A head that restarted in place may leave its old entry DEAD next to the live one.
  const head = heads.find((n) => n.raylet.state === 'ALIVE') ?? heads[0];
  if (!head) return { kind: 'no-head' };
  const address = head.raylet['nodeManagerAddress'];
  const ip = typeof address === 'string' && address !== '' ? address : typeof head['ip'] === 'string' ? head['ip'] : '';
  return ip ? { kind: 'head', ip, nodeId: head.raylet.nodeId } : { kind: 'no-head' };
}
