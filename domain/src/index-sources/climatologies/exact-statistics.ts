import { PERCENTILE_RANKS } from '@cropcover/contracts';
import { decimalOfMillionths } from '../../insurance/money/decimal';
import { compareRationals, type Rational, rationalOf } from '../../insurance/money/rational';

// The statistics of a climatology on exact values (INDEX-DATA §3): each period's value is a rational
// number of millionths (a sum of 6-decimal readings, or that sum over the period's days), and each
// figure is rounded once, half up, to 6 decimals, from its exact value.

/** ⌊√n⌋ of a non-negative integer (Newton's iteration from above, which never overshoots below). */
export const integerSquareRoot = (n: bigint): bigint => {
  if (n < 0n) throw new RangeError('no square root of a negative number');
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const next = (x + n / x) / 2n;
    if (next >= x) return x;
    x = next;
  }
};

/** √(p / q), p ≥ 0 and q > 0, rounded half up to a whole number: k = ⌊√⌊p/q⌋⌋ = ⌊√(p/q)⌋, and the root
 *  reaches k + ½ exactly when 4p ≥ q(2k + 1)², all on integers. */
export const roundedSquareRoot = ({ numerator, denominator }: Rational): bigint => {
  const whole = integerSquareRoot(numerator / denominator);
  const half = 2n * whole + 1n;
  return 4n * numerator >= denominator * half * half ? whole + 1n : whole;
};

export interface ExactNormal {
  readonly mean: number;
  readonly sd: number;
  readonly percentiles: Readonly<Record<string, number>>;
}

const displayed = (value: Rational): number => decimalOfMillionths(value.numerator, value.denominator);

const sumOf = (values: readonly Rational[]): Rational => {
  // One common denominator for the whole sum: the period values share few denominators (days per period).
  const denominator = values.reduce(
    (common, { denominator: own }) => (common % own === 0n ? common : common * own),
    1n,
  );
  return rationalOf(
    values.reduce((sum, value) => sum + value.numerator * (denominator / value.denominator), 0n),
    denominator,
  );
};

/** Mean, sample standard deviation (n − 1) and nearest-rank percentiles p5…p95 of at least two values in
 *  millionths, each rounded once to 6 decimals half up. */
export const exactNormalOf = (values: readonly Rational[]): ExactNormal => {
  const n = BigInt(values.length);
  if (n < 2n) throw new RangeError('a normal needs at least two values');
  const total = sumOf(values);
  const mean = rationalOf(total.numerator, total.denominator * n);
  // Σ(v − mean)² = Σv² − (Σv)²/n, exact; divided by n − 1.
  const squares = sumOf(values.map((value) => rationalOf(value.numerator * value.numerator, value.denominator ** 2n)));
  const deviations = rationalOf(
    squares.numerator * total.denominator ** 2n * n - total.numerator ** 2n * squares.denominator,
    squares.denominator * total.denominator ** 2n * n,
  );
  const variance = rationalOf(deviations.numerator, deviations.denominator * (n - 1n));
  const sorted = [...values].sort(compareRationals);
  // Nearest rank: the ⌈p·n / 100⌉-th smallest value.
  const percentiles = Object.fromEntries(
    PERCENTILE_RANKS.map((rank) => {
      const position = Math.floor((rank * values.length + 99) / 100);
      return [`p${rank}`, displayed(sorted[Math.max(position, 1) - 1] as Rational)];
    }),
  );
  return { mean: displayed(mean), sd: decimalOfMillionths(roundedSquareRoot(variance)), percentiles };
};
