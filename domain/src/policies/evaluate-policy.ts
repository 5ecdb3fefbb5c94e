import type { Peril, PolicyDataSources, PolicyEvent, SkipReasons } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { earlierDate, utcDate } from '../insurance/calendar-date';
import { amountDueMinor, payoutFor } from '../insurance/payout';
import type { ReadingHistory } from '../insurance/reading-history';
import { severityFraction } from '../insurance/severity';
import { refuseClosedPolicy } from './close-policy';
import { payoutIdFor } from './payout-id';
import { assessPerils, coverageOnTheWire, policyTerm } from './peril-assessment';
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

/** A live evaluation as of today (clipped to term end): records every peril whose data was enough to
 *  evaluate, with its coverage and what it is now due, and why each other peril was skipped; pays each
 *  new or deeper breach the difference to what that peril was already paid, and records an overpayment
 *  when a corrected reading left a peril due less than it was paid. */
export const evaluatePolicy = (command: EvaluatePolicy, state: Policy): PolicyEvent[] => {
  const policy = visibleIssuedPolicy(state, command.actor);
  refuseUnevaluablePolicy(policy, command.now);
  const { issued } = policy;
  const asOf = earlierDate(utcDate(command.now), issued.term_end);
  const evaluatedAt = command.now.toISOString();
  const events: PolicyEvent[] = [];
  const skipped: Peril[] = [];
  const reasons: SkipReasons = {};
  let paidMinor = policy.paidMinor;
  const assessor = command.assessor ?? assessEachTime;
  for (const { cover, outcome } of assessPerils(policy, command.readings, asOf, policyTerm(policy), assessor)) {
    const { peril, trigger_index, comparison } = cover.terms;
    if (outcome.observedValue === null) {
      skipped.push(peril);
      reasons[peril] = outcome.skipReason;
      continue;
    }
    const severity = severityFraction(outcome.severityPpm);
    const dueMinor = amountDueMinor(outcome.severity, issued.sum_insured_minor);
    events.push({
      type: 'TriggerEvaluated',
      data: {
        policy_id: issued.policy_id,
        evaluation_id: command.evaluationId,
        peril,
        trigger_index,
        as_of: asOf,
        window_start: outcome.windowStart,
        window_end: outcome.windowEnd,
        observed_value: outcome.observedValue,
        readings_used: outcome.readingsUsed,
        coverage: coverageOnTheWire(outcome.coverage),
        provenance: assessor.provenance(
          cover.data,
          cover.terms.aggregation,
          command.readings[peril] ?? [],
          outcome.windowStart,
          outcome.windowEnd,
        ),
        threshold: cover.terms.threshold,
        comparison,
        breached: outcome.breached,
        severity,
        amount_due_minor: dueMinor,
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
    const amountMinor = payoutFor(dueMinor, issued.sum_insured_minor, cover.paidMinor, paidMinor);
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
        trigger_index,
        observed_value: outcome.observedValue,
        threshold: cover.terms.threshold,
        severity,
        amount_due_minor: dueMinor,
        as_of: asOf,
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
