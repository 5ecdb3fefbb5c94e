import { type IssuedPolicy, nextMonitoringDate } from '@cropcover/domain';
import type { PoliciesTable, PolicyPayoutsTable } from '@cropcover/read-store';
import type { Insertable } from 'kysely';

/** A policies row as the projection writes it (batch-parameters.ts): the aggregate as the jsonb value itself. */
export type PolicyRow = Omit<Insertable<PoliciesTable>, 'aggregate'> & { readonly aggregate: IssuedPolicy };

/** The policies row of an aggregate: its issue terms, status and the domain's next monitoring date. */
export const policyRow = (policy: IssuedPolicy, streamRevision: number): PolicyRow => {
  const { issued } = policy;
  return {
    policy_id: issued.policy_id,
    organization_id: issued.organization_id,
    environment: issued.environment,
    farm_id: issued.farm_id,
    field_id: issued.field_id,
    farm_name: issued.farm_name,
    owner_farmer_id: issued.owner_farmer_id ?? null,
    field_name: issued.field_name,
    field_area_ha: issued.field_area_ha,
    field_location: issued.field_location,
    crop_type: issued.crop_type,
    sum_insured_minor: issued.sum_insured_minor,
    currency: issued.currency,
    premium_minor: issued.premium_minor,
    perils: [...issued.perils],
    status: policy.status,
    issued_at: issued.issued_at,
    term_start: issued.term_start,
    term_end: issued.term_end,
    platform_version: issued.platform_version,
    next_monitoring_date: nextMonitoringDate(policy) ?? null,
    aggregate: policy,
    stream_revision: streamRevision,
  };
};

/** The policy_payouts row of one of the aggregate's payouts. */
export const policyPayoutRow = (policy: IssuedPolicy, payoutId: string): Insertable<PolicyPayoutsTable> => {
  const payout = policy.payouts.find((candidate) => candidate.payoutId === payoutId);
  if (!payout) throw new Error(`policy ${policy.issued.policy_id} has no payout ${payoutId}`);
  return {
    payout_id: payout.payoutId,
    policy_id: policy.issued.policy_id,
    organization_id: policy.issued.organization_id,
    peril: payout.peril,
    evaluation_id: payout.evaluationId,
    amount_minor: payout.amountMinor,
    currency: policy.issued.currency,
    status: payout.settledAt === null ? 'approved' : 'settled',
    approved_at: payout.approvedAt,
    settled_at: payout.settledAt,
  };
};
