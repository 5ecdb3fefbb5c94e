import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error';
import { divideRounded } from './decimal';
import { allocateMinorUnits, multiplyMinorUnits, toMajorUnits, toMinorUnits } from './minor-units';

describe('money in minor units', () => {
  it('converts major units by the currency exponent without float error', () => {
    expect(toMinorUnits(1234.56, 'USD')).toBe(123456);
    expect(toMinorUnits(0.29, 'USD')).toBe(29);
    expect(toMinorUnits(1.005, 'KWD')).toBe(1005);
    expect(toMinorUnits(1234, 'JPY')).toBe(1234);
    expect(toMinorUnits(10_000_000_000, 'USD')).toBe(1_000_000_000_000);
    expect(toMajorUnits(123456, 'USD')).toBe(1234.56);
    expect(toMajorUnits(29, 'USD')).toBe(0.29);
    expect(toMajorUnits(1005, 'KWD')).toBe(1.005);
    expect(toMajorUnits(7, 'JPY')).toBe(7);
  });

  it('refuses more decimals than the currency allows, with a clear message', () => {
    expect(() => toMinorUnits(12.345, 'USD')).toThrow(DomainError);
    expect(() => toMinorUnits(12.345, 'USD')).toThrow('12.345 USD has more decimals than USD allows (2)');
    expect(() => toMinorUnits(100.5, 'JPY')).toThrow(/JPY allows \(0\)/);
    expect(() => toMinorUnits(1e-7, 'USD')).toThrow(DomainError);
  });

  it('round-trips every minor amount for 0-, 2-, 3- and 4-decimal currencies', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000_000 }),
        fc.constantFrom('JPY', 'USD', 'KWD', 'CLF'),
        (minor, currency) => {
          expect(toMinorUnits(toMajorUnits(minor, currency), currency)).toBe(minor);
        },
      ),
    );
  });

  it('rounds half-up, ties away from zero', () => {
    expect(divideRounded(5n, 2n)).toBe(3n);
    expect(divideRounded(-5n, 2n)).toBe(-3n);
    expect(divideRounded(7n, 3n)).toBe(2n);
    expect(multiplyMinorUnits(101, 1n, 2n)).toBe(51);
    expect(multiplyMinorUnits(99, 1n, 2n)).toBe(50);
  });

  it('allocates by largest remainder so the parts add up exactly', () => {
    expect(allocateMinorUnits(100, [1n, 1n, 1n])).toEqual([34, 33, 33]);
    expect(allocateMinorUnits(1, [30_000n, 30_000n])).toEqual([1, 0]);
    expect(allocateMinorUnits(11, [50_000n, 30_000n, 20_000n])).toEqual([6, 3, 2]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000_000 }),
        fc.array(fc.bigInt({ min: 1n, max: 2_000_000n }), { minLength: 1, maxLength: 4 }),
        (total, weights) => {
          const parts = allocateMinorUnits(total, weights);
          expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total);
          const weightSum = weights.reduce((sum, weight) => sum + weight, 0n);
          parts.forEach((part, at) => {
            const exact = (BigInt(total) * weights[at]!) / weightSum;
            expect(BigInt(part) - exact).toBeGreaterThanOrEqual(0n);
            expect(BigInt(part) - exact).toBeLessThanOrEqual(1n);
          });
        },
      ),
    );
  });
});
