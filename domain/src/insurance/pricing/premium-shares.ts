import type { PremiumShare } from '@cropcover/contracts';
import { millionthsOf } from '../money/decimal';
import { multiplyMinorUnits } from '../money/minor-units';
import { multiplyRationals, type Rational, rationalOfDecimal } from '../money/rational';

/** A payer's part of the premium, in minor units. */
export interface PayerPremiumMinor {
  readonly payer: string;
  readonly share: number;
  readonly premiumMinor: number;
}

export type ShareRounding = 'each' | 'remainder_to_first';

/**
 * Who pays what of a premium (TERM-SHEETS.md §5 `premium_shares`). `remainder_to_first` (the default, PRF's
 * two steps): the premium as rounded once, every share but the first rounded half up from it, the first
 * payer the rest — so the parts add up to it. `each`: every share of the exact premium (rate × sum insured,
 * unrounded) rounded half up on its own; the premium is then their sum.
 */
export const premiumShares = (
  shares: readonly PremiumShare[],
  rounding: ShareRounding,
  premiumMinor: number,
  exactPremium: { readonly rate: Rational; readonly sumInsuredMinor: number },
): PayerPremiumMinor[] => {
  if (rounding === 'each') {
    return shares.map(({ payer, share }) => {
      const part = multiplyRationals(exactPremium.rate, rationalOfDecimal(share));
      return {
        payer,
        share,
        premiumMinor: multiplyMinorUnits(exactPremium.sumInsuredMinor, part.numerator, part.denominator),
      };
    });
  }
  const others = shares.slice(1).map(({ payer, share }) => ({
    payer,
    share,
    premiumMinor: multiplyMinorUnits(premiumMinor, millionthsOf(share), 1_000_000n),
  }));
  const first = shares[0]!;
  const rest = premiumMinor - others.reduce((sum, part) => sum + part.premiumMinor, 0);
  return [{ payer: first.payer, share: first.share, premiumMinor: rest }, ...others];
};
