import type { Context, Ending } from '../context.ts';
import { applyVerdict } from '../running/apply-verdict.ts';
import { markSubmittersAttachOnly } from '../running/attach-only-mark.ts';
import { observeRunning } from '../running/observation.ts';
import { explainRunning, verdictEvidence } from '../running/evidence.ts';
import { judgeRunning } from '../running/rules.ts';

/**
 * Running: observe once, let the first rule of `RUNNING_RULES` that has a verdict decide, apply it. The order
 * of the table is the order of status-correctness.md (addition E).
 */
export function decideRunning(ctx: Context): Ending {
  const observation = observeRunning(ctx);
  const { rule, verdict } = judgeRunning(observation);
  const ending = applyVerdict(ctx, observation, rule, verdict);
  ctx.runningEvidence = explainRunning(ctx, observation, rule, verdict);
  ctx.verdictEvidence = verdictEvidence(observation, rule, verdict);
  markSubmittersAttachOnly(ctx);
  return ending;
}
