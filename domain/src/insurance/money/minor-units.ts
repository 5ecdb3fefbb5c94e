import { minorUnitExponent } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import { divideRounded, scaleExact, unscale } from './decimal';

// Money inside the domain is an integer number of minor units (cents; yen for JPY). Every amount stays
// below 10^10 major units × 10^4, well inside Number's exact integer range.

/** An amount in major units (1234.56) as minor units (123456); more decimals than the currency has is a
 *  refusal, never a silent rounding of what the client asked for. */
export const toMinorUnits = (amount: number, currency: string): number => {
  const exponent = minorUnitExponent(currency);
  const minor = scaleExact(amount, exponent);
  if (minor === undefined) {
    throw new DomainError(
      'rejected',
      'invalid_amount',
      `${amount} ${currency} has more decimals than ${currency} allows (${exponent})`,
    );
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new DomainError('rejected', 'invalid_amount', `${amount} ${currency} is too large`);
  }
  return Number(minor);
};

/** Minor units as the JSON number in major units the API shows (123456 USD → 1234.56). */
export const toMajorUnits = (minor: number, currency: string): number =>
  unscale(BigInt(minor), minorUnitExponent(currency));

/** `amount × numerator / denominator` in minor units, rounded half-up: exact for any integer inputs. */
export const multiplyMinorUnits = (amount: number, numerator: bigint, denominator: bigint): number =>
  Number(divideRounded(BigInt(amount) * numerator, denominator));

/** Splits `total` minor units in proportion to `weights` so the parts add up to `total` exactly
 *  (largest remainder: every part gets its floor, the units left go to the largest remainders, ties
 *  to the earlier part). */
export const allocateMinorUnits = (total: number, weights: readonly bigint[]): number[] => {
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0n);
  if (weightSum <= 0n || weights.some((weight) => weight < 0n)) {
    throw new RangeError('weights must be non-negative with a positive sum');
  }
  const totalUnits = BigInt(total);
  const shares = weights.map((weight, position) => ({
    position,
    floor: (totalUnits * weight) / weightSum,
    remainder: (totalUnits * weight) % weightSum,
  }));
  let left = totalUnits - shares.reduce((sum, share) => sum + share.floor, 0n);
  const parts = shares.map((share) => share.floor);
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.position - b.position : a.remainder > b.remainder ? -1 : 1,
  );
  for (const share of byRemainder) {
    if (left === 0n) break;
    parts[share.position] = share.floor + 1n;
    left -= 1n;
  }
  return parts.map(Number);
};
