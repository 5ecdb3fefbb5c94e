import { divideRounded, scaleExact, unscale } from './decimal';

// A premium rate is an exact fraction of the sum insured. The term's exposure (days / 365) and the
// credibility n / (n + k) are rarely finite decimals, so a rate kept in millionths would be rounded
// before the premium is: the premium is instead rounded once, from the exact rate (SPEC §7).

export interface PremiumRate {
  readonly numerator: bigint;
  /** Always positive. */
  readonly denominator: bigint;
}

const greatestCommonDivisor = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

const reduced = (numerator: bigint, denominator: bigint): PremiumRate => {
  const divisor = greatestCommonDivisor(numerator, denominator);
  return divisor <= 1n
    ? { numerator, denominator }
    : { numerator: numerator / divisor, denominator: denominator / divisor };
};

export const rateOf = (numerator: bigint, denominator: bigint): PremiumRate => {
  if (denominator <= 0n) throw new RangeError('a rate needs a positive denominator');
  return reduced(numerator, denominator);
};

const CATALOG_PLACES = 6;

/** A catalog figure (0.05, 0.6, 1.3) as an exact rate: figures have at most 6 decimals. */
export const rateOfDecimal = (figure: number): PremiumRate => {
  const scaled = scaleExact(figure, CATALOG_PLACES);
  if (scaled === undefined) throw new RangeError(`catalog figure ${figure} has more than ${CATALOG_PLACES} decimals`);
  return rateOf(scaled, 10n ** BigInt(CATALOG_PLACES));
};

export const ZERO_RATE: PremiumRate = { numerator: 0n, denominator: 1n };

export const addRates = (a: PremiumRate, b: PremiumRate): PremiumRate =>
  rateOf(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);

export const multiplyRates = (a: PremiumRate, b: PremiumRate): PremiumRate =>
  rateOf(a.numerator * b.numerator, a.denominator * b.denominator);

/** Negative when a < b, 0 when equal, positive when a > b. */
export const compareRates = (a: PremiumRate, b: PremiumRate): number => {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
};

export const largerRate = (a: PremiumRate, b: PremiumRate): PremiumRate => (compareRates(a, b) >= 0 ? a : b);

/** rate × amount in minor units, rounded half-up once: the premium of a rate. */
export const applyRate = (rate: PremiumRate, amountMinor: number): number =>
  Number(divideRounded(rate.numerator * BigInt(amountMinor), rate.denominator));

/** Each rate's numerator over one shared denominator: weights that split a premium in the rates' ratio. */
export const commonNumerators = (rates: readonly PremiumRate[]): bigint[] => {
  const common = rates.reduce(
    (denominator, rate) => (denominator * rate.denominator) / greatestCommonDivisor(denominator, rate.denominator),
    1n,
  );
  return rates.map((rate) => rate.numerator * (common / rate.denominator));
};

const DISPLAY_PLACES = 6;

/** The decimal the API shows, rounded half-up to 6 places for display only: the premium is computed from
 *  the exact rate (1/30 → 0.033333). */
export const displayedRate = (rate: PremiumRate): number =>
  unscale(divideRounded(rate.numerator * 10n ** BigInt(DISPLAY_PLACES), rate.denominator), DISPLAY_PLACES);
