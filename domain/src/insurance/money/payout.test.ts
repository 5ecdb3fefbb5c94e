import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountDueMinor, payoutFor } from './payout';
import { exactSeverity } from './severity';

describe('payoutFor', () => {
  it('pays what the breach is due less what the peril was paid, never negative', () => {
    expect(payoutFor(500_000, 1_000_000, 0, 0)).toBe(500_000);
    expect(payoutFor(750_000, 1_000_000, 500_000, 500_000)).toBe(250_000);
    expect(payoutFor(500_000, 1_000_000, 500_000, 500_000)).toBe(0);
    expect(payoutFor(400_000, 1_000_000, 500_000, 500_000)).toBe(0);
  });

  it('never pays beyond the sum insured across perils', () => {
    expect(payoutFor(1_000_000, 1_000_000, 0, 700_000)).toBe(300_000);
    expect(payoutFor(1_000_000, 1_000_000, 0, 1_000_000)).toBe(0);
  });

  it('a deeper breach pays exactly the difference; payouts never decrease as severity grows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000_000_000 }),
        fc.bigInt({ min: 1n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (sumInsured, span, a, b) => {
          const [lower, higher] = a <= b ? [a, b] : [b, a];
          const lowerDue = amountDueMinor(exactSeverity(lower, span), sumInsured);
          const higherDue = amountDueMinor(exactSeverity(higher, span), sumInsured);
          const first = payoutFor(lowerDue, sumInsured, 0, 0);
          const second = payoutFor(higherDue, sumInsured, first, first);
          expect(higherDue).toBeGreaterThanOrEqual(lowerDue);
          expect(first + second).toBe(higherDue);
          expect(payoutFor(higherDue, sumInsured, first + second, first + second)).toBe(0);
          expect(first + second).toBeLessThanOrEqual(sumInsured);
        },
      ),
    );
  });
});
