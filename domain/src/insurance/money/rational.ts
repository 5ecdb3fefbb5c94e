import { DECIMAL_PLACES, decimalOfMillionths, divideRounded, MILLIONTHS, millionthsOf } from './decimal';

// Exact fractions of BigInts: premium rates, the shares of a sum insured a cover pays, the blocks of an
// index. A term's exposure (days / 365), a credibility n / (n + k) or a percent of normal are rarely finite
// decimals, so nothing made from them is rounded before the one rounding of the money at the end.

export interface Rational {
  readonly numerator: bigint;
  /** Always positive. */
  readonly denominator: bigint;
}

const greatestCommonDivisor = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

/** `numerator / denominator` in lowest terms; the denominator must be positive. */
export const rationalOf = (numerator: bigint, denominator: bigint): Rational => {
  if (denominator <= 0n) throw new RangeError('a rational needs a positive denominator');
  const divisor = greatestCommonDivisor(numerator, denominator);
  return divisor <= 1n
    ? { numerator, denominator }
    : { numerator: numerator / divisor, denominator: denominator / divisor };
};

/** A figure of a sheet (0.05, 0.6, 1.3: at most 6 decimals) as an exact rational. */
export const rationalOfDecimal = (figure: number): Rational => rationalOf(millionthsOf(figure), MILLIONTHS);

export const ZERO: Rational = { numerator: 0n, denominator: 1n };
export const ONE: Rational = { numerator: 1n, denominator: 1n };

export const addRationals = (a: Rational, b: Rational): Rational =>
  rationalOf(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);

export const multiplyRationals = (a: Rational, b: Rational): Rational =>
  rationalOf(a.numerator * b.numerator, a.denominator * b.denominator);

/** Negative when a < b, 0 when equal, positive when a > b. */
export const compareRationals = (a: Rational, b: Rational): number => {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
};

export const largerRational = (a: Rational, b: Rational): Rational => (compareRationals(a, b) >= 0 ? a : b);
export const smallerRational = (a: Rational, b: Rational): Rational => (compareRationals(a, b) <= 0 ? a : b);

/** rate × amount in minor units, rounded half-up once: the premium of a rate. */
export const applyRate = (rate: Rational, amountMinor: number): number =>
  Number(divideRounded(rate.numerator * BigInt(amountMinor), rate.denominator));

/** Each rational's numerator over one shared denominator: weights that split an amount in their ratio. */
export const commonNumerators = (rationals: readonly Rational[]): bigint[] => {
  const common = rationals.reduce(
    (denominator, rational) =>
      (denominator * rational.denominator) / greatestCommonDivisor(denominator, rational.denominator),
    1n,
  );
  return rationals.map((rational) => rational.numerator * (common / rational.denominator));
};

/** The decimal the API shows, rounded half-up to 6 places for display only: what is made from it is made
 *  from the exact rational (1/30 → 0.033333). */
export const displayedDecimal = (rational: Rational): number =>
  decimalOfMillionths(rational.numerator * MILLIONTHS, rational.denominator);

/** The same rational in millionths, rounded half-up (a share of a sum insured as the burning cost keeps it). */
export const millionthsOfRational = (rational: Rational): number =>
  Number(divideRounded(rational.numerator * 10n ** BigInt(DECIMAL_PLACES), rational.denominator));
