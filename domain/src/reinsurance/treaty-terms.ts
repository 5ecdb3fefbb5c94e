import type { TreatyBindRequest, TreatyTerms } from '@cropcover/contracts';
import { scaleExact } from '../insurance/money/decimal';
import { multiplyMinorUnits, toMinorUnits } from '../insurance/money/minor-units';

// Ratios (cession rates, commissions, stop-loss attachments as a share of premium) are decimals with at
// most 6 places, applied exactly: amount × ratio in millionths, rounded half-up once.
const RATIO_PLACES = 6;
const RATIO_SCALE = 10n ** BigInt(RATIO_PLACES);

/** `amount × ratio`, rounded half-up to the minor unit. */
export const applyRatio = (amountMinor: number, ratio: number): number => {
  const ppm = scaleExact(ratio, RATIO_PLACES);
  if (ppm === undefined) throw new RangeError(`ratio ${ratio} has more than ${RATIO_PLACES} decimals`);
  return multiplyMinorUnits(amountMinor, ppm, RATIO_SCALE);
};

const ratioOrAmountMinor = (value: { ratio: number } | { amount: number }, currency: string) =>
  'ratio' in value ? { ratio: value.ratio } : { amount_minor: toMinorUnits(value.amount, currency) };

/** A treaty as requested, in minor units of the programme's currency. */
export const treatyTermsOf = (request: TreatyBindRequest, currency: string): TreatyTerms => {
  switch (request.type) {
    case 'quota_share':
      return { type: 'quota_share', cession_rate: request.cession_rate, ceding_commission: request.ceding_commission };
    case 'stop_loss':
      return {
        type: 'stop_loss',
        attachment: ratioOrAmountMinor(request.attachment, currency),
        limit: ratioOrAmountMinor(request.limit, currency),
      };
    case 'cat_xl':
      return {
        type: 'cat_xl',
        retention_minor: toMinorUnits(request.retention, currency),
        limit_minor: toMinorUnits(request.limit, currency),
        aggregate_limit_minor:
          request.aggregate_limit === undefined ? null : toMinorUnits(request.aggregate_limit, currency),
      };
  }
};
