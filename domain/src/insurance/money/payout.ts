import { divideRounded } from './decimal';
import { multiplyMinorUnits } from './minor-units';
import type { ExactSeverity } from './severity';

/** How a sheet rounds money: half-up (the default) or down, once per cover amount. */
export type MoneyRounding = 'half_up' | 'down';

/** The one money rounding (TERM-SHEETS.md §1.3 step 9): an exact amount `numerator / denominator` of
 *  minor units (non-negative) to a whole number of them. */
export const roundedMinorUnits = (numerator: bigint, denominator: bigint, rounding: MoneyRounding): number =>
  Number(rounding === 'down' ? numerator / denominator : divideRounded(numerator, denominator));

/** What a breach of `severity` is worth in minor units: round-half-up(depth × sum insured / span), one
 *  rounding on the exact fraction, in BigInt (the product passes 2^53 long before the sum insured does).
 *  Severity is at most 1, so this is at most the sum insured. */
export const amountDueMinor = (severity: ExactSeverity, sumInsuredMinor: number): number =>
  multiplyMinorUnits(sumInsuredMinor, severity.depth, severity.span);

/** What a peril's breach pays now, in minor units: what it is due less what the peril was already
 *  paid, never negative, and never more than what is left of the policy's limit (the sum insured, or the
 *  sheet's limit of it). So an unchanged breach pays nothing again, a deeper one pays only the difference,
 *  and a shallower one (a corrected reading) pays nothing and takes nothing back. */
export const payoutFor = (
  dueMinor: number,
  limitMinor: number,
  alreadyPaidForPeril: number,
  totalPaidAllPerils: number,
): number => {
  const owed = Math.max(0, dueMinor - alreadyPaidForPeril);
  const left = Math.max(0, limitMinor - totalPaidAllPerils);
  return Math.min(owed, left);
};
