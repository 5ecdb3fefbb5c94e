import type { EvaluationResult } from '@cropcover/contracts';
import {
  backtestPolicy,
  backtestTerm,
  policyAggregate,
  policyDataSources,
  policyStream,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import type { CommandContext } from '../command-context';
import type { CommandDeps } from '../command-deps';
import { loadAggregate } from '../handle-command';
import { readingHistoryFrom } from '../readings/reading-history';

/** What the triggers showed as of a past date: computed from the readings, never appended, never paid. */
export const backtestEvaluation = async (
  deps: CommandDeps,
  context: CommandContext,
  policyId: string,
  asOf: string,
): Promise<EvaluationResult> => {
  const state = await loadAggregate(deps.eventStore, policyStream(policyId), policyAggregate);
  const policy = visibleIssuedPolicy(state, context.actor);
  const term = backtestTerm(policy, asOf);
  const readings = await readingHistoryFrom(deps.db)({
    sources: policyDataSources(policy),
    from: term.start,
    to: term.end,
  });
  return backtestPolicy({ actor: context.actor, asOf, readings, now: context.now }, state);
};
