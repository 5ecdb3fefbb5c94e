import type { Peril, PolicyDataSources, PolicyEvent, SkipReasons } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { earlierDate, utcDate } from '../insurance/calendar-date';
import { payoutFor } from '../insurance/payout';
import type { ReadingHistory } from '../insurance/reading-history';
import { provenanceOf } from '../insurance/readings-provenance';
import { severityFraction } from '../insurance/severity';
import { payoutIdFor } from './payout-id';
import { assessPerils, coverageOnTheWire, policyTerm } from './peril-assessment';
import type { Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

export interface EvaluatePolicy {
  readonly actor: Actor;
  readonly evaluationId: string;
  /** Each peril's readings over the term from its frozen data, as the caller loaded them. */
  readonly readings: ReadingHistory;
  readonly now: Date;
}

/** A live evaluation as of today (clipped to term end): records every peril whose data was enough to
 *  evaluate, with its coverage, and why each other peril was skipped; pays each new or deeper breach the difference to what that peril was already paid. */
export const evaluatePolicy = (command: EvaluatePolicy, state: Policy): PolicyEvent[] => {
  const policy = visibleIssuedPolicy(state, command.actor);
  if (policy.status === 'lapsed' || policy.status === 'expired') {
    throw new DomainError(
      'rejected',
      'policy_not_evaluable',
      `a ${policy.status} policy can only be backtested (as_of before today)`,
    );
  }
  const { issued } = policy;
  const asOf = earlierDate(utcDate(command.now), issued.term_end);
  const evaluatedAt = command.now.toISOString();
  const events: PolicyEvent[] = [];
  const skipped: Peril[] = [];
  const reasons: SkipReasons = {};
  let paidMinor = policy.paidMinor;
  for (const { cover, outcome } of assessPerils(policy, command.readings, asOf, policyTerm(policy))) {
    const { peril, trigger_index, comparison } = cover.terms;
    if (outcome.observedValue === null) {
      skipped.push(peril);
      reasons[peril] = outcome.skipReason;
      continue;
    }
    const severity = severityFraction(outcome.severityPpm);
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
        provenance: provenanceOf(
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
        evaluated_at: evaluatedAt,
      },
    });
    const newOrDeeper = outcome.breached && (!cover.breached || outcome.severityPpm > cover.deepestSeverityPpm);
    if (!newOrDeeper) continue;
    const amountMinor = payoutFor(outcome.severityPpm, issued.sum_insured_minor, cover.paidMinor, paidMinor);
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
