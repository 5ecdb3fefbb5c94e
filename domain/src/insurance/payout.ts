import { multiplyMinorUnits } from './money';
import type { ExactSeverity } from './severity';

/** What a breach of `severity` is worth in minor units: round-half-up(depth × sum insured / span), one
 *  rounding on the exact fraction, in BigInt (the product passes 2^53 long before the sum insured does).
 *  Severity is at most 1, so this is at most the sum insured. */
export const amountDueMinor = (severity: ExactSeverity, sumInsuredMinor: number): number =>
  multiplyMinorUnits(sumInsuredMinor, severity.depth, severity.span);

/** What a peril's breach pays now, in minor units: what it is due less what the peril was already
 *  paid, never negative, and never more than what is left of the sum insured. So an unchanged breach
 *  pays nothing again, a deeper one pays only the difference, and a shallower one (a corrected reading)
 *  pays nothing and takes nothing back. */
export const payoutFor = (
  dueMinor: number,
  sumInsuredMinor: number,
  alreadyPaidForPeril: number,
  totalPaidAllPerils: number,
): number => {
  const owed = Math.max(0, dueMinor - alreadyPaidForPeril);
  const left = Math.max(0, sumInsuredMinor - totalPaidAllPerils);
  return Math.min(owed, left);
};
