import type { Cover, Peril, SheetAmounts } from '@cropcover/contracts';
import { dayValuesIn } from '../insurance/index-data/day-values';
import { evaluateCover, isPhaseComplete } from '../insurance/term-sheet/evaluate-cover';
import { amountUnitsOf, sheetRounding, unitsOfSumInsured } from '../insurance/term-sheet/sheet-money';
import { seasonsBackOf } from '../insurance/term-sheet/windows';
import { policyTerm } from '../policies/peril-assessment';
import type { IssuedPolicy } from '../policies/policy';
import type { AsIfPolicy, EvaluateSeasonCover } from './as-if-book';

// The as-if core on term sheets: the same evaluation a policy's own backtest makes (backtestPolicy), so a
// season's as-if loss is the sum of the policies' backtests. Every policy is a sheet: one issued before
// products is read as the sheet of its own frozen triggers.

/** A cover of a sheet and the sheet's units, as the as-if book groups them. */
export interface SheetCoverTerms {
  readonly cover: Cover;
  readonly amounts: SheetAmounts;
}

/** A cover over a past season, as of the season's end (evaluateCover): its exact share of the sum insured
 *  is what it is due per unit of sum insured. Complete when every phase was read on enough of its window
 *  (a rolling `last`: its last days), whatever the aggregate. */
export const evaluateSeasonCover: EvaluateSeasonCover<SheetCoverTerms> = (
  { cover, amounts },
  _term,
  season,
  readings,
) => {
  const outcome = evaluateCover(
    { cover, amounts, term: season, readings: dayValuesIn(readings, season.start, season.end) },
    season.end,
  );
  if (outcome.skipReason !== null) return { kind: 'skipped' };
  return { kind: 'evaluated', duePerSumInsured: outcome.share, complete: outcome.phases.every(isPhaseComplete) };
};

/** An issued policy as the as-if book takes it: each peril's frozen cover on its frozen zone, paid in the
 *  policy's peril order, up to the sheet's limit of its sum insured. With `perils`, only those covers (the
 *  others pay nothing, as if the policy had not bought them); undefined when it has none of them. */
export const asIfPolicyOf = (
  policy: IssuedPolicy,
  perils?: readonly Peril[],
): AsIfPolicy<SheetCoverTerms> | undefined => {
  const covers =
    perils === undefined ? policy.perils : policy.perils.filter((cover) => perils.includes(cover.terms.peril));
  if (covers.length === 0) return undefined;
  return {
    policyId: policy.issued.policy_id,
    sumInsuredMinor: policy.issued.sum_insured_minor,
    term: policyTerm(policy),
    yearsBack: seasonsBackOf(policy.sheet, policyTerm(policy)),
    covers: covers.map((cover) => ({
      peril: cover.terms.peril,
      zone: { source_id: cover.data.source_id, location: cover.data.location },
      index: cover.data.index,
      terms: { cover: cover.terms, amounts: policy.sheet.amounts },
      // The product version names its sheet: its covers evaluate alike on the same readings.
      signature: `${policy.product.digest}#${cover.terms.peril}`,
    })),
    limit: {
      numerator:
        policy.sheet.limit === undefined
          ? unitsOfSumInsured(policy.sheet.amounts)
          : amountUnitsOf(policy.sheet.amounts)(policy.sheet.limit),
      denominator: unitsOfSumInsured(policy.sheet.amounts),
    },
    rounding: sheetRounding(policy.sheet),
  };
};
