import { TRIGGER_BREACHED_EVENT_TYPE, type TriggerBreached, type TriggerBreachedDelivery } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';

/** The webhook body of a recorded breach: self-contained, money in major units as the API shows it. The
 *  payout is `approved` here — it is reported as it was when the breach happened, not as it is later. */
export const triggerBreachedDelivery = (
  eventId: string,
  organizationId: string,
  breach: TriggerBreached,
): TriggerBreachedDelivery => ({
  type: TRIGGER_BREACHED_EVENT_TYPE,
  timestamp: breach.breached_at,
  data: {
    event_id: eventId,
    policy_id: breach.policy_id,
    organization_id: organizationId,
    farm_id: breach.farm_id,
    field_id: breach.field_id,
    peril: breach.peril,
    trigger_index: breach.trigger_index,
    observed_value: breach.observed_value,
    threshold: breach.threshold,
    severity: breach.severity,
    as_of: breach.as_of,
    ...(breach.phase === undefined ? {} : { phase: breach.phase }),
    evaluation_id: breach.evaluation_id,
    payout: breach.payout && {
      payout_id: breach.payout.payout_id,
      amount: toMajorUnits(breach.payout.amount_minor, breach.payout.currency),
      currency: breach.payout.currency,
      status: 'approved',
    },
  },
});
