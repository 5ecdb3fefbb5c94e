import { multiplyMinorUnits } from './money';
import { FULL_SEVERITY_PPM } from './severity';

/** What a peril's breach pays now, in minor units: round-half-up(severity × sum insured) less what the
 *  peril was already paid, never negative, and never more than what is left of the sum insured. So an
 *  unchanged breach pays nothing again, a deeper one pays only the difference. */
export const payoutFor = (
  severityPpm: number,
  sumInsuredMinor: number,
  alreadyPaidForPeril: number,
  totalPaidAllPerils: number,
): number => {
  const due = multiplyMinorUnits(sumInsuredMinor, BigInt(severityPpm), BigInt(FULL_SEVERITY_PPM));
  const owed = Math.max(0, due - alreadyPaidForPeril);
  const left = Math.max(0, sumInsuredMinor - totalPaidAllPerils);
  return Math.min(owed, left);
};
