import { isIsoCurrency, minorUnitExponent } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMajorUnits, toMinorUnits } from './minor-units';
import { amountDueMinor } from './payout';
import { exactSeverity } from './severity';

// SPEC §7: a payout is round_half_up(|observed − threshold| × sum insured / |exit − threshold|), one
// rounding to the currency's minor unit. Checked against the definition of that rounding rather than
// against the same formula: r is the rounding of x = depth × sum / span when |r − x| ≤ 1/2, and on a
// tie (|r − x| = 1/2) r is the one away from zero.

const isRoundedHalfUp = (rounded: bigint, depth: bigint, sum: bigint, span: bigint): boolean => {
  const twiceError = 2n * (rounded * span - depth * sum);
  if (twiceError === span) return true; // a tie, rounded up (away from zero: every amount is positive)
  return twiceError < span && twiceError > -span;
};

/** A sum insured of at most 10^10 major units with at most `exponent` decimals, in minor units. */
const sumInsuredMinor = (exponent: number) => fc.bigInt({ min: 1n, max: 10n ** BigInt(10 + exponent) });

describe('an exact payout, for every currency exponent 0–4', () => {
  for (const exponent of [0, 1, 2, 3, 4]) {
    it(`rounds depth × sum insured / span once, half-up, to 10^-${exponent}`, () => {
      fc.assert(
        fc.property(
          sumInsuredMinor(exponent),
          fc.bigInt({ min: 1n, max: 10n ** 12n }),
          fc.bigInt({ min: 0n, max: 10n ** 12n }),
          (sum, span, rawDepth) => {
            const depth = rawDepth % (span + 1n); // severity ≤ 1
            const paid = BigInt(amountDueMinor(exactSeverity(depth, span), Number(sum)));
            expect(isRoundedHalfUp(paid, depth, sum, span)).toBe(true);
            expect(paid <= sum).toBe(true);
          },
        ),
        { numRuns: 500 },
      );
    });
  }

  it('pays the full sum insured for a severity of 1 or more, and ties away from zero', () => {
    expect(amountDueMinor(exactSeverity(5n, 4n), 1_000)).toBe(1_000);
    expect(amountDueMinor(exactSeverity(0n, 0n), 1_000)).toBe(1_000);
    // 1/4 of 2 minor units is 0.5: up to 1; 1/3 of 1 is 0.33…: down to 0.
    expect(amountDueMinor(exactSeverity(1n, 4n), 2)).toBe(1);
    expect(amountDueMinor(exactSeverity(1n, 3n), 1)).toBe(0);
  });

  it('in JPY, USD, BHD (and CLF where the currency table accepts it) pays 1/3 and 2/3 to the minor unit', () => {
    const cases: [string, number, number, number][] = [
      ['JPY', 10_000_000_000, 3_333_333_333, 6_666_666_667],
      ['USD', 10_000_000_000, 3_333_333_333.33, 6_666_666_666.67],
      ['KES', 250_000, 83_333.33, 166_666.67],
      ['BHD', 1_000, 333.333, 666.667],
      ['CLF', 1_000, 333.3333, 666.6667],
    ];
    for (const [currency, sumInsured, third, twoThirds] of cases) {
      if (!isIsoCurrency(currency)) continue;
      const minor = toMinorUnits(sumInsured, currency);
      expect(minor).toBe(sumInsured * 10 ** minorUnitExponent(currency));
      expect(toMajorUnits(amountDueMinor(exactSeverity(50n, 150n), minor), currency)).toBe(third);
      expect(toMajorUnits(amountDueMinor(exactSeverity(100n, 150n), minor), currency)).toBe(twoThirds);
    }
  });
});
