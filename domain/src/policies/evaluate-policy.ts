import type { Peril, PolicyDataSources, PolicyEvent, SkipReasons } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { earlierDate, utcDate } from '../insurance/calendar/calendar-date';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { sourceProvenance } from '../insurance/index-data/readings-provenance';
import { payoutFor } from '../insurance/money/payout';
import { severityFraction } from '../insurance/money/severity';
import { minorUnitsOfShare, sheetLimitMinor, sheetRounding } from '../insurance/term-sheet/sheet-money';
import { refuseClosedPolicy } from './close-policy';
import { coverFigures, phasesEvaluated } from './cover-figures';
import { payoutIdFor } from './payout-id';
import { assessPerils, policyTerm, provenanceAggregate } from './peril-assessment';
import { assessEachTime, type PerilAssessor } from './peril-assessor';
import type { IssuedPolicy, Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

export interface EvaluatePolicy {
  readonly actor: Actor;
  readonly evaluationId: string;
  /** Each peril's readings over the term from its frozen data, as the caller loaded them. */
  readonly readings: ReadingHistory;
  readonly now: Date;
  /** How the perils' outcomes are worked out: once per evaluation unless the caller shares them. */
  readonly assessor?: PerilAssessor;
}

/** Whether a live evaluation may run at all: not on a lapsed policy, nor on a closed one or one whose
 *  closing date has come (the caller closes it first). The checks come before any reading is loaded. */
export const refuseUnevaluablePolicy = (policy: IssuedPolicy, now: Date): void => {
  if (policy.status === 'lapsed') {
    throw new DomainError(
      'rejected',
      'policy_not_evaluable',
      'a lapsed policy can only be backtested (as_of before today)',
    );
  }
  refuseClosedPolicy(policy, now);
};

/** A live evaluation as of today (clipped to term end): records every cover with a phase its data was
 *  enough to evaluate, with its coverage and what it is now due, and why each other cover was skipped;
 *  pays each new or deeper breach the difference to what that cover was already paid (within what is left
 *  of the sheet's limit), and records an overpayment when a corrected reading left a cover due less than
 *  it was paid. */
export const evaluatePolicy = (command: EvaluatePolicy, state: Policy): PolicyEvent[] => {
  const policy = visibleIssuedPolicy(state, command.actor);
  refuseUnevaluablePolicy(policy, command.now);
  const { issued } = policy;
  const asOf = earlierDate(utcDate(command.now), issued.term_end);
  const evaluatedAt = command.now.toISOString();
  const money = { sumInsuredMinor: issued.sum_insured_minor, rounding: sheetRounding(policy.sheet) };
  const limitMinor = sheetLimitMinor(policy.sheet, issued.sum_insured_minor);
  const events: PolicyEvent[] = [];
  const skipped: Peril[] = [];
  const reasons: SkipReasons = {};
  let paidMinor = policy.paidMinor;
  const assessor = command.assessor ?? assessEachTime;
  for (const { cover, outcome } of assessPerils(policy, command.readings, asOf, policyTerm(policy), assessor)) {
    const { peril, index } = cover.terms;
    const figures = coverFigures(outcome, asOf);
    if (figures === undefined || outcome.readings === undefined) {
      skipped.push(peril);
      reasons[peril] = outcome.skipReason ?? 'no_data';
      continue;
    }
    const readings = command.readings[peril] ?? [];
    const severity = severityFraction(outcome.severityPpm);
    const dueMinor = minorUnitsOfShare(outcome.share, money.sumInsuredMinor, money.rounding);
    const phases = phasesEvaluated(outcome, money, readings, assessor);
    events.push({
      type: 'TriggerEvaluated',
      data: {
        policy_id: issued.policy_id,
        evaluation_id: command.evaluationId,
        peril,
        trigger_index: index,
        as_of: asOf,
        window_start: figures.windowStart,
        window_end: figures.windowEnd,
        observed_value: figures.observedValue,
        readings_used: figures.readingsUsed,
        coverage: figures.coverage,
        provenance: {
          ...sourceProvenance(cover.data),
          ...assessor.readingsUsed(
            provenanceAggregate(policy, cover),
            readings,
            outcome.readings.from,
            outcome.readings.to,
          ),
        },
        threshold: figures.threshold,
        comparison: figures.comparison,
        breached: outcome.breached,
        severity,
        amount_due_minor: dueMinor,
        ...(phases === undefined ? {} : { phases }),
        evaluated_at: evaluatedAt,
      },
    });
    if (cover.paidMinor > dueMinor && cover.overpaidDueMinor !== dueMinor) {
      events.push({
        type: 'PayoutOverpaymentRecorded',
        data: {
          policy_id: issued.policy_id,
          evaluation_id: command.evaluationId,
          peril,
          amount_paid_minor: cover.paidMinor,
          amount_due_minor: dueMinor,
          difference_minor: cover.paidMinor - dueMinor,
          currency: issued.currency,
          recorded_at: evaluatedAt,
        },
      });
    }
    // Deeper is measured in money: above the deepest breach so far, which is at least what was paid.
    const newOrDeeper = outcome.breached && (!cover.breached || dueMinor > cover.deepestDueMinor);
    if (!newOrDeeper) continue;
    const amountMinor = payoutFor(dueMinor, limitMinor, cover.paidMinor, paidMinor);
    const payoutId = payoutIdFor(command.evaluationId, peril);
    events.push({
      type: 'TriggerBreached',
      data: {
        policy_id: issued.policy_id,
        organization_id: issued.organization_id,
        evaluation_id: command.evaluationId,
        farm_id: issued.farm_id,
        field_id: issued.field_id,
        peril,
        trigger_index: index,
        observed_value: figures.observedValue,
        threshold: figures.threshold,
        severity,
        amount_due_minor: dueMinor,
        as_of: asOf,
        ...(phases === undefined ? {} : { phase: figures.phase }),
        payout: amountMinor > 0 ? { payout_id: payoutId, amount_minor: amountMinor, currency: issued.currency } : null,
        breached_at: evaluatedAt,
      },
    });
    if (amountMinor === 0) continue;
    paidMinor += amountMinor;
    events.push({
      type: 'PayoutApproved',
      data: {
        policy_id: issued.policy_id,
        payout_id: payoutId,
        evaluation_id: command.evaluationId,
        peril,
        severity,
        amount_minor: amountMinor,
        currency: issued.currency,
        approved_at: evaluatedAt,
      },
    });
  }
  if (skipped.length > 0) {
    events.push({
      type: 'TriggerEvaluationSkipped',
      data: {
        policy_id: issued.policy_id,
        evaluation_id: command.evaluationId,
        perils: skipped,
        reasons,
        as_of: asOf,
        window_start: issued.term_start,
        window_end: asOf,
        evaluated_at: evaluatedAt,
      },
    });
  }
  return events;
};

/** The frozen data of each peril: what the caller loads readings from. */
export const policyDataSources = (state: Policy): PolicyDataSources =>
  state.status === 'not_issued' ? {} : Object.fromEntries(state.perils.map((cover) => [cover.terms.peril, cover.data]));
