import type { EvaluationResult, PolicyEvent } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';
import { phasesForClients } from './cover-figures';
import type { IssuedPolicy } from './policy';

/** The events one evaluation recorded, found by its id among a policy's events. */
export const evaluationEvents = (events: readonly PolicyEvent[], evaluationId: string): PolicyEvent[] =>
  events.filter((event) => 'evaluation_id' in event.data && event.data.evaluation_id === evaluationId);

/** The response of a live evaluation, from the events it appended and the policy after them. */
export const evaluationResult = (policy: IssuedPolicy, events: readonly PolicyEvent[]): EvaluationResult => {
  const { issued } = policy;
  const evaluated = events.flatMap((event) => (event.type === 'TriggerEvaluated' ? [event.data] : []));
  const skips = events.flatMap((event) => (event.type === 'TriggerEvaluationSkipped' ? [event.data] : []));
  const skipped = skips.flatMap((skip) => skip.perils);
  const asOf = events.flatMap((event) =>
    event.type === 'TriggerEvaluated' || event.type === 'TriggerEvaluationSkipped' ? [event.data.as_of] : [],
  )[0];
  if (asOf === undefined) throw new RangeError('a live evaluation records at least one evaluated or skipped peril');
  const payouts = events.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []));
  return {
    policy_id: issued.policy_id,
    as_of: asOf,
    events: evaluated.map((trigger) => {
      const phases = phasesForClients(trigger.phases, issued.currency);
      return {
        peril: trigger.peril,
        index: trigger.trigger_index,
        observed_value: trigger.observed_value,
        threshold: trigger.threshold,
        breached: trigger.breached,
        severity: trigger.severity,
        coverage: trigger.coverage,
        ...(phases === undefined ? {} : { phases }),
      };
    }),
    total_payout: toMajorUnits(
      payouts.reduce((sum, amount) => sum + amount, 0),
      issued.currency,
    ),
    currency: issued.currency,
    is_backtest: false,
    payout_count: payouts.length,
    policy_status: policy.status,
    triggers_evaluated: evaluated.length,
    triggers_total: issued.perils.length,
    skipped_perils: skipped,
    // A skip recorded before reasons were had no reading at all.
    skipped_reasons: Object.fromEntries(
      skips.flatMap((skip) => skip.perils.map((peril) => [peril, skip.reasons?.[peril] ?? 'no_data'])),
    ),
  };
};
