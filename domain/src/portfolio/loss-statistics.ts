import type { LossStatistics, ReturnPeriodLoss } from '@cropcover/contracts';
import { divideRounded, unscale } from '../insurance/money/decimal';
import { toMajorUnits } from '../insurance/money/minor-units';

// What actuaries read off a series of as-if season losses (research note §2), exactly: no float touches
// money. With N seasons, the k-th largest loss has the empirical return period N / k; a return period
// longer than N years is not in the data and is not made up (null, `insufficient_seasons`) — a 1-in-100
// needs a fitted distribution, not 20 seasons.

/** The return periods shown, in years. */
export const RETURN_PERIODS = [2, 5, 10, 20, 25, 50, 100, 200, 250] as const;

const LOSS_COST_PLACES = 6;

/** ⌊√n⌋ of a non-negative integer, by Newton's method on BigInts. */
const integerSquareRoot = (n: bigint): bigint => {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
};

/** √(numerator / denominator) rounded half-up: r with (2r − 1)² ≤ 4v < (2r + 1)², from ⌊2√v⌋. */
const roundedSquareRoot = (numerator: bigint, denominator: bigint): bigint =>
  (integerSquareRoot((4n * numerator) / denominator) + 1n) / 2n;

export interface LossFigures {
  readonly seasons: number;
  readonly averageMinor: number;
  /** Average loss ÷ total sum insured, in millionths. */
  readonly lossCostPpm: bigint;
  readonly standardDeviationMinor: number | null;
  readonly maximumMinor: number;
  readonly returnPeriods: readonly (
    | { readonly years: number; readonly lossMinor: number; readonly empiricalReturnPeriod: number }
    | { readonly years: number; readonly lossMinor: null }
  )[];
}

/** The figures of `losses` (one per season, in minor units) against `totalSumInsuredMinor`. */
export const lossFigures = (losses: readonly number[], totalSumInsuredMinor: number): LossFigures => {
  const n = BigInt(losses.length);
  if (n === 0n) throw new RangeError('no seasons');
  const sum = losses.reduce((total, loss) => total + BigInt(loss), 0n);
  const squares = losses.reduce((total, loss) => total + BigInt(loss) * BigInt(loss), 0n);
  // Sample variance: (N Σx² − (Σx)²) / (N (N − 1)).
  const standardDeviationMinor = n < 2n ? null : Number(roundedSquareRoot(n * squares - sum * sum, n * (n - 1n)));
  const descending = [...losses].sort((a, b) => b - a);
  const N = losses.length;
  return {
    seasons: N,
    averageMinor: Number(divideRounded(sum, n)),
    lossCostPpm:
      totalSumInsuredMinor === 0
        ? 0n
        : divideRounded(sum * 10n ** BigInt(LOSS_COST_PLACES), n * BigInt(totalSumInsuredMinor)),
    standardDeviationMinor,
    maximumMinor: descending[0]!,
    returnPeriods: RETURN_PERIODS.map((years) => {
      if (years > N) return { years, lossMinor: null };
      const k = Math.floor(N / years);
      return { years, lossMinor: descending[k - 1]!, empiricalReturnPeriod: N / k };
    }),
  };
};

/** The figures as the API shows them, in major units. */
export const lossStatistics = (figures: LossFigures, currency: string): LossStatistics => {
  const money = (minor: number) => toMajorUnits(minor, currency);
  return {
    seasons: figures.seasons,
    average_annual_loss: money(figures.averageMinor),
    loss_cost: unscale(figures.lossCostPpm, LOSS_COST_PLACES),
    standard_deviation: figures.standardDeviationMinor === null ? null : money(figures.standardDeviationMinor),
    maximum: money(figures.maximumMinor),
    return_periods: figures.returnPeriods.map(
      (point): ReturnPeriodLoss =>
        point.lossMinor === null
          ? { years: point.years, loss: null, reason: 'insufficient_seasons' }
          : { years: point.years, loss: money(point.lossMinor), empirical_return_period: point.empiricalReturnPeriod },
    ),
  };
};
