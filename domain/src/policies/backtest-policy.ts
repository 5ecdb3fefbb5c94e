import type { EvaluationResult } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { utcDate } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { toMajorUnits } from '../insurance/money/minor-units';
import { payoutFor } from '../insurance/money/payout';
import { severityFraction } from '../insurance/money/severity';
import { minorUnitsOfShare, sheetLimitMinor, sheetRounding } from '../insurance/term-sheet/sheet-money';
import { seasonsBackOf } from '../insurance/term-sheet/windows';
import { coverFigures, phasesEvaluated, phasesForClients } from './cover-figures';
import { assessPerils, policyTerm } from './peril-assessment';
import { assessEachTime } from './peril-assessor';
import type { IssuedPolicy, Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

/** The cover a backtest as of `asOf` looks at: the policy's own term, or, before term start, its season
 *  whole years back (`seasonsBackOf`) — the latest starting on or before `asOf`. */
export const backtestTerm = (policy: IssuedPolicy, asOf: string): CoverTerm => {
  const yearsBack = seasonsBackOf(policy.sheet, policyTerm(policy));
  let years = 0;
  while (yearsBack(years).start > asOf) years += 1;
  return yearsBack(years);
};

export interface BacktestPolicy {
  readonly actor: Actor;
  readonly asOf: string;
  /** The field's readings over `backtestTerm(policy, asOf)`, by index. */
  readonly readings: ReadingHistory;
  readonly now: Date;
}

/** What the policy's covers show as of a past date: computed, never stored, never paid. The payout is
 *  what a fresh cover would have paid as of that date (nothing paid before it, within the sheet's limit).
 *  A season shifted back by whole years is judged on its own days: its windows, sowing and levels per
 *  window day are resolved for it (a drought total over 365 days, not the 366 of a leap term). */
export const backtestPolicy = (command: BacktestPolicy, state: Policy): EvaluationResult => {
  const policy = visibleIssuedPolicy(state, command.actor);
  const today = utcDate(command.now);
  if (command.asOf >= today) {
    throw new DomainError('rejected', 'not_a_backtest', `a backtest is as of a date before today (${today})`);
  }
  const { issued } = policy;
  const money = { sumInsuredMinor: issued.sum_insured_minor, rounding: sheetRounding(policy.sheet) };
  const limitMinor = sheetLimitMinor(policy.sheet, issued.sum_insured_minor);
  const assessed = assessPerils(policy, command.readings, command.asOf, backtestTerm(policy, command.asOf)).map(
    ({ cover, outcome }) => ({ cover, outcome, figures: coverFigures(outcome, command.asOf) }),
  );
  const evaluated = assessed.flatMap(({ cover, outcome, figures }) =>
    figures === undefined ? [] : [{ cover, outcome, figures }],
  );
  const skipped = assessed.flatMap(({ cover, outcome, figures }) =>
    figures === undefined ? [{ peril: cover.terms.peril, reason: outcome.skipReason ?? 'no_data' }] : [],
  );
  let paidMinor = 0;
  for (const { outcome } of evaluated) {
    paidMinor += payoutFor(
      minorUnitsOfShare(outcome.share, money.sumInsuredMinor, money.rounding),
      limitMinor,
      0,
      paidMinor,
    );
  }
  return {
    policy_id: issued.policy_id,
    as_of: command.asOf,
    events: evaluated.map(({ cover, outcome, figures }) => {
      const phases = phasesForClients(
        phasesEvaluated(outcome, money, command.readings[cover.terms.peril] ?? [], assessEachTime),
        issued.currency,
      );
      return {
        peril: cover.terms.peril,
        index: cover.terms.index,
        observed_value: figures.observedValue,
        threshold: figures.threshold,
        breached: outcome.breached,
        severity: severityFraction(outcome.severityPpm),
        coverage: figures.coverage,
        ...(phases === undefined ? {} : { phases }),
      };
    }),
    total_payout: toMajorUnits(paidMinor, issued.currency),
    currency: issued.currency,
    is_backtest: true,
    policy_status: policy.status,
    triggers_evaluated: evaluated.length,
    triggers_total: issued.perils.length,
    skipped_perils: skipped.map(({ peril }) => peril),
    skipped_reasons: Object.fromEntries(skipped.map(({ peril, reason }) => [peril, reason])),
  };
};
