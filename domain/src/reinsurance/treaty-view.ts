import type { LedgerPeriod, Treaty, TreatyTerms } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';

export interface TreatyShown {
  readonly treaty_id: string;
  readonly programme_id: string;
  readonly currency: string;
  readonly period: LedgerPeriod;
  readonly reinsurer_organization_id: string | null;
  readonly inurance_order: number;
  readonly terms: TreatyTerms;
  readonly bound_at: string;
}

/** A treaty as the API shows it, as bound (`TreatyBound`) or as projected: amounts in major units. */
export const treatyView = (treaty: TreatyShown): Treaty => {
  const money = (minor: number) => toMajorUnits(minor, treaty.currency);
  const ratioOrAmount = (value: { ratio: number } | { amount_minor: number }) =>
    'ratio' in value ? { ratio: value.ratio } : { amount: money(value.amount_minor) };
  const shown = {
    treaty_id: treaty.treaty_id,
    programme_id: treaty.programme_id,
    period: { from: treaty.period.from, to: treaty.period.to },
    reinsurer_organization_id: treaty.reinsurer_organization_id,
    inurance_order: treaty.inurance_order,
    bound_at: treaty.bound_at,
  };
  const { terms } = treaty;
  switch (terms.type) {
    case 'quota_share':
      return {
        type: 'quota_share',
        ...shown,
        cession_rate: terms.cession_rate,
        ceding_commission: terms.ceding_commission,
      };
    case 'stop_loss':
      return {
        type: 'stop_loss',
        ...shown,
        attachment: ratioOrAmount(terms.attachment),
        limit: ratioOrAmount(terms.limit),
      };
    case 'cat_xl':
      return {
        type: 'cat_xl',
        ...shown,
        retention: money(terms.retention_minor),
        limit: money(terms.limit_minor),
        aggregate_limit: terms.aggregate_limit_minor === null ? null : money(terms.aggregate_limit_minor),
      };
  }
};
