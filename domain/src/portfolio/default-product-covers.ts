import type { TriggerTerms } from '@cropcover/contracts';
import { seasonTriggerTerms } from '../insurance/season-terms';
import { evaluateTrigger, isCompleteEnough, triggerLevels } from '../insurance/trigger-evaluation';
import { policyTerm } from '../policies/peril-assessment';
import type { IssuedPolicy } from '../policies/policy';
import type { AsIfPolicy, EvaluateSeasonCover } from './as-if-book';

// The as-if core on today's covers (a frozen trigger per peril): the same evaluation a policy's own
// backtest makes (backtestPolicy), so a season's as-if loss is the sum of the policies' backtests. The
// term-sheet engine's evaluateCover takes its place as the cover evaluation when covers become sheets.

/** A trigger over a past season, as of the season's end: its exact severity is what it is due per unit
 *  of sum insured. Complete when its window (for a 30-day mean, its last 30 days) had readings on enough
 *  days, whatever the aggregate. */
export const evaluateSeasonTrigger: EvaluateSeasonCover<TriggerTerms> = (terms, term, season, readings) => {
  const seasonTerms = seasonTriggerTerms(terms, term, season);
  const outcome = evaluateTrigger(seasonTerms, readings, season.end, season);
  if (outcome.observedValue === null) return { kind: 'skipped' };
  return {
    kind: 'evaluated',
    duePerSumInsured: { numerator: outcome.severity.depth, denominator: outcome.severity.span },
    complete: isCompleteEnough(triggerLevels(seasonTerms), outcome.coverage),
  };
};

/** An issued policy as the as-if book takes it: each peril's frozen trigger on its frozen zone, paid in
 *  the policy's peril order, up to the sum insured. */
export const asIfPolicyOf = (policy: IssuedPolicy): AsIfPolicy<TriggerTerms> => ({
  policyId: policy.issued.policy_id,
  sumInsuredMinor: policy.issued.sum_insured_minor,
  term: policyTerm(policy),
  covers: policy.perils.map((cover) => ({
    peril: cover.terms.peril,
    zone: { source_id: cover.data.source_id, location: cover.data.location },
    terms: cover.terms,
    signature: JSON.stringify(cover.terms),
  })),
});
