import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payoutFor } from './payout';

describe('payoutFor', () => {
  it('pays round-half-up(severity × sum insured) less what the peril was paid', () => {
    expect(payoutFor(500_000, 1_000_000, 0, 0)).toBe(500_000);
    expect(payoutFor(333_333, 100, 0, 0)).toBe(33);
    expect(payoutFor(5, 100_000, 0, 0)).toBe(1);
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
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (sumInsured, a, b) => {
          const [lower, higher] = a <= b ? [a, b] : [b, a];
          const first = payoutFor(lower, sumInsured, 0, 0);
          const second = payoutFor(higher, sumInsured, first, first);
          expect(payoutFor(higher, sumInsured, 0, 0)).toBeGreaterThanOrEqual(first);
          expect(first + second).toBe(payoutFor(higher, sumInsured, 0, 0));
          expect(payoutFor(higher, sumInsured, first + second, first + second)).toBe(0);
          expect(first + second).toBeLessThanOrEqual(sumInsured);
        },
      ),
    );
  });
});
