import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, scaleExact, scaleRounded } from './decimal';

/** value × 10^6 rounded half-up, from all the digits of the value's shortest decimal form. */
const roundedFromDigits = (value: number): bigint | undefined => {
  const exact = scaleExact(value, 40);
  return exact === undefined ? undefined : divideRounded(exact, 10n ** 34n);
};

describe('scaling index values to millionths', () => {
  it('gives what the digits of the shortest decimal form give, for readings of few or many decimals', () => {
    const value = fc.oneof(
      fc
        .tuple(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), fc.integer({ min: 0, max: 9 }))
        .map(([digits, places]) => digits / 10 ** places),
      fc.double({ min: -1e10, max: 1e10, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    );
    fc.assert(
      fc.property(value, (reading) => {
        const expected = roundedFromDigits(reading);
        if (expected !== undefined) expect(scaleRounded(reading, 6)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('rounds half-up at the seventh decimal and keeps large values exact', () => {
    expect(scaleRounded(0.0000005, 6)).toBe(1n);
    expect(scaleRounded(-0.0000005, 6)).toBe(-1n);
    expect(scaleRounded(0.1234564, 6)).toBe(123_456n);
    expect(scaleRounded(4_503_599_627.370497, 6)).toBe(4_503_599_627_370_497n);
    expect(scaleRounded(12_345_678_901.25, 6)).toBe(12_345_678_901_250_000n);
  });
});
