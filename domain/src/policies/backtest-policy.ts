import type { EvaluationResult } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { utcDate } from '../insurance/calendar-date';
import { type CoverTerm, termYearsBack } from '../insurance/cover-term';
import { toMajorUnits } from '../insurance/money';
import { amountDueMinor, payoutFor } from '../insurance/payout';
import type { ReadingHistory } from '../insurance/reading-history';
import { seasonTriggerTerms } from '../insurance/season-terms';
import { severityFraction } from '../insurance/severity';
import { evaluateTrigger } from '../insurance/trigger-evaluation';
import { coverageOnTheWire, policyTerm } from './peril-assessment';
import type { IssuedPolicy, Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

/** The cover a backtest as of `asOf` looks at: the policy's own term, or, before term start, the same
 *  term shifted back by whole years to the latest season starting on or before `asOf`. */
export const backtestTerm = (policy: IssuedPolicy, asOf: string): CoverTerm => {
  const term = policyTerm(policy);
  let years = 0;
  while (termYearsBack(term, years).start > asOf) years += 1;
  return termYearsBack(term, years);
};

export interface BacktestPolicy {
  readonly actor: Actor;
  readonly asOf: string;
  /** The field's readings over `backtestTerm(policy, asOf)`, by index. */
  readonly readings: ReadingHistory;
  readonly now: Date;
}

/** What the policy's triggers show as of a past date: computed, never stored, never paid. The payout is
 *  what a fresh cover would have paid as of that date (nothing paid before it, capped at the sum insured). */
export const backtestPolicy = (command: BacktestPolicy, state: Policy): EvaluationResult => {
  const policy = visibleIssuedPolicy(state, command.actor);
  const today = utcDate(command.now);
  if (command.asOf >= today) {
    throw new DomainError('rejected', 'not_a_backtest', `a backtest is as of a date before today (${today})`);
  }
  const { issued } = policy;
  const season = backtestTerm(policy, command.asOf);
  // A season shifted back by whole years is judged on its own days: a drought total over 365 days, not
  // the 366 of a leap term.
  const assessed = policy.perils.map((peril) => {
    const terms = seasonTriggerTerms(peril.terms, policyTerm(policy), season);
    const cover = { ...peril, terms };
    return { cover, outcome: evaluateTrigger(terms, command.readings[terms.peril] ?? [], command.asOf, season) };
  });
  const evaluated = assessed.flatMap(({ cover, outcome }) =>
    outcome.observedValue === null ? [] : [{ cover, outcome, observedValue: outcome.observedValue }],
  );
  const skipped = assessed.flatMap(({ cover, outcome }) =>
    outcome.skipReason === null ? [] : [{ peril: cover.terms.peril, reason: outcome.skipReason }],
  );
  let paidMinor = 0;
  for (const { outcome } of evaluated) {
    paidMinor += payoutFor(
      amountDueMinor(outcome.severity, issued.sum_insured_minor),
      issued.sum_insured_minor,
      0,
      paidMinor,
    );
  }
  return {
    policy_id: issued.policy_id,
    as_of: command.asOf,
    events: evaluated.map(({ cover, outcome, observedValue }) => ({
      peril: cover.terms.peril,
      index: cover.terms.trigger_index,
      observed_value: observedValue,
      threshold: cover.terms.threshold,
      breached: outcome.breached,
      severity: severityFraction(outcome.severityPpm),
      coverage: coverageOnTheWire(outcome.coverage),
    })),
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
