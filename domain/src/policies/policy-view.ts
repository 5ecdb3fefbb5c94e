import type { Comparison, PolicyListItem, Policy as PolicyResponse, TriggerStatus } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';
import { evaluateCover } from '../insurance/term-sheet/evaluate-cover';
import { nextMonitoringDate } from './next-monitoring-date';
import { policyTerm } from './peril-assessment';
import type { IssuedPolicy, PerilCover } from './policy';
import { firstThreshold } from './trigger-status';

/** What the last evaluation knew of a peril's data; before any, nothing was read (as the live status of
 *  a window without readings says). */
const triggerData = (cover: PerilCover): Pick<TriggerStatus, 'coverage' | 'skipped_reason'> => {
  if (cover.latestObservedValue === null) return { skipped_reason: cover.latestSkipReason ?? 'no_data' };
  return cover.latestCoverage === null ? {} : { coverage: cover.latestCoverage };
};

/** The threshold a cover shows: that of the phase its last evaluation showed, else its first phase's on
 *  the policy's term. */
const thresholdOf = (policy: IssuedPolicy, cover: PerilCover): { threshold: number; comparison: Comparison } => {
  if (cover.latestThreshold !== null && cover.latestComparison !== null) {
    return { threshold: cover.latestThreshold, comparison: cover.latestComparison };
  }
  const term = policyTerm(policy);
  const outcome = evaluateCover(
    { cover: cover.terms, amounts: policy.sheet.amounts, term, readings: [], source: cover.data },
    term.start,
  );
  return firstThreshold(outcome) ?? { threshold: 0, comparison: 'lte' };
};

/** The policy as the API shows it (issue, retrieve, lapse responses). */
export const policyView = (policy: IssuedPolicy, monitoringIntervalDays?: number): PolicyResponse => {
  const { issued } = policy;
  const next = nextMonitoringDate(policy, monitoringIntervalDays);
  return {
    policy_id: issued.policy_id,
    organization_id: issued.organization_id,
    environment: issued.environment,
    farm_id: issued.farm_id,
    field_id: issued.field_id,
    ...(issued.farm_name === null ? {} : { farm_name: issued.farm_name }),
    ...(issued.field_name === null ? {} : { field_name: issued.field_name }),
    ...(issued.field_area_ha === null ? {} : { field_area_ha: issued.field_area_ha }),
    ...(issued.field_location === null ? {} : { field_location: issued.field_location }),
    ...(issued.crop_type === null ? {} : { crop_type: issued.crop_type }),
    sum_insured: toMajorUnits(issued.sum_insured_minor, issued.currency),
    currency: issued.currency,
    premium: toMajorUnits(issued.premium_minor, issued.currency),
    ...(issued.exposure_units === undefined ? {} : { exposure_units: issued.exposure_units }),
    ...(issued.premium_shares === undefined
      ? {}
      : {
          premium_shares: issued.premium_shares.map(({ payer, share, premium_minor }) => ({
            payer,
            share,
            premium: toMajorUnits(premium_minor, issued.currency),
          })),
        }),
    perils: [...issued.perils],
    product: policy.product,
    triggers: policy.perils.map((cover) => {
      const { threshold, comparison } = thresholdOf(policy, cover);
      return {
        peril: cover.terms.peril,
        trigger_index: cover.terms.index,
        current_index_reading: cover.latestObservedValue,
        trigger_threshold: threshold,
        comparison,
        data_available: cover.latestObservedValue !== null || cover.latestSkipReason === 'incomplete_data',
        ...triggerData(cover),
        data_source: cover.data,
      };
    }),
    status: policy.status,
    issued_at: issued.issued_at,
    term_start: issued.term_start,
    term_end: issued.term_end,
    platform_version: issued.platform_version,
    ...(next === undefined ? {} : { next_monitoring_date: next }),
    ...(policy.closedAt === null ? {} : { closed_at: policy.closedAt }),
  };
};

/** The policy as an element of GET /insurance/policies. */
export const policyListItem = (policy: IssuedPolicy, monitoringIntervalDays?: number): PolicyListItem => {
  const view = policyView(policy, monitoringIntervalDays);
  return {
    policy_id: view.policy_id,
    farm_id: view.farm_id,
    field_id: view.field_id,
    ...(view.crop_type === undefined ? {} : { crop_type: view.crop_type }),
    sum_insured: view.sum_insured,
    currency: view.currency,
    premium: view.premium,
    perils: view.perils,
    status: view.status,
    issued_at: view.issued_at,
    term_start: view.term_start,
    term_end: view.term_end,
    ...(view.next_monitoring_date === undefined ? {} : { next_monitoring_date: view.next_monitoring_date }),
  };
};
