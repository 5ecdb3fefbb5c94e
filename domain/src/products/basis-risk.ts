import type { BasisRisk } from '@cropcover/contracts';
import { decimalOfMillionths, MILLIONTHS } from '../insurance/money/decimal';
import { compareRationals, type Rational } from '../insurance/money/rational';

// Basis risk (TERM-SHEETS.md §5.1, docs/term-sheets.md "Basis risk"): how well an index's payouts follow
// the losses an insurer observed, as the index-design literature reports it (Clarke 2016; Jensen, Barrett
// & Mude 2016): Spearman's rank correlation of payouts and losses, and how often a loss above a threshold
// went unpaid (false negative) or a payout came without one (false positive). Exact to the one rounding.

/** One season at one location: what the index paid (a share of the sum insured) and the loss observed. */
export interface PayoutAndLoss {
  readonly payout: Rational;
  readonly loss: Rational;
}

/** Twice each value's rank, ties taking their average rank (1-based): whole numbers, exact. */
const doubledRanks = (values: readonly Rational[]): bigint[] => {
  const order = values.map((_, at) => at).sort((a, b) => compareRationals(values[a]!, values[b]!));
  const ranks = new Array<bigint>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && compareRationals(values[order[start]!]!, values[order[end]!]!) === 0) end += 1;
    // Positions start..end-1 hold ranks start+1..end: their average, doubled, is start + end + 1.
    for (let at = start; at < end; at += 1) ranks[order[at]!] = BigInt(start + end + 1);
    start = end;
  }
  return ranks;
};

/** ⌊√n⌋ of a non-negative integer. */
const integerSquareRoot = (n: bigint): bigint => {
  if (n < 2n) return n;
  let root = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (root * root > n) root -= 1n;
  while ((root + 1n) * (root + 1n) <= n) root += 1n;
  return root;
};

/** Spearman's ρ: Pearson's correlation of the ranks (ties by average ranks), rounded half up (away from
 *  zero) once to 6 decimals from the exact value; null with fewer than 2 pairs or a constant side. */
export const spearman = (xs: readonly Rational[], ys: readonly Rational[]): number | null => {
  const n = BigInt(xs.length);
  if (n < 2n) return null;
  const rx = doubledRanks(xs);
  const ry = doubledRanks(ys);
  let sx = 0n;
  let sy = 0n;
  let sxx = 0n;
  let syy = 0n;
  let sxy = 0n;
  for (let at = 0; at < xs.length; at += 1) {
    const [x, y] = [rx[at]!, ry[at]!];
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  const covariance = n * sxy - sx * sy;
  const varianceX = n * sxx - sx * sx;
  const varianceY = n * syy - sy * sy;
  if (varianceX === 0n || varianceY === 0n) return null;
  // |ρ|·10^6 = √(cov²·10^12 / (vx·vy)); rounded half up it is ⌊(⌊2·that⌋ + 1) / 2⌋, and ⌊2·that⌋ is the
  // integer square root of ⌊4·cov²·10^12 / (vx·vy)⌋: exact, with no float in between.
  const scale = MILLIONTHS * MILLIONTHS;
  const twice = integerSquareRoot((4n * covariance * covariance * scale) / (varianceX * varianceY));
  const magnitude = (twice + 1n) / 2n;
  return decimalOfMillionths(covariance < 0n ? -magnitude : magnitude);
};

const frequency = (count: number, of: number): number | null =>
  of === 0 ? null : decimalOfMillionths(BigInt(count) * MILLIONTHS, BigInt(of));

/** The basis-risk figures of the pairs: a false negative is a loss above `threshold` with no payout, a
 *  false positive a payout with no loss above it; both as counts and as frequencies over all pairs. */
export const basisRisk = (pairs: readonly PayoutAndLoss[], threshold: Rational): BasisRisk => {
  let lossesAbove = 0;
  let payouts = 0;
  let falseNegatives = 0;
  let falsePositives = 0;
  for (const { payout, loss } of pairs) {
    const lost = compareRationals(loss, threshold) > 0;
    const paid = payout.numerator > 0n;
    if (lost) lossesAbove += 1;
    if (paid) payouts += 1;
    if (lost && !paid) falseNegatives += 1;
    if (paid && !lost) falsePositives += 1;
  }
  return {
    pairs: pairs.length,
    spearman: spearman(
      pairs.map((pair) => pair.payout),
      pairs.map((pair) => pair.loss),
    ),
    losses_above_threshold: lossesAbove,
    payouts,
    false_negatives: falseNegatives,
    false_positives: falsePositives,
    false_negative_frequency: frequency(falseNegatives, pairs.length),
    false_positive_frequency: frequency(falsePositives, pairs.length),
  };
};
