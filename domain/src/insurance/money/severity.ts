import { DECIMAL_PLACES, decimalOfMillionths, divideRounded, MILLIONTHS, scaleExact } from './decimal';

// A severity is exact while money is made from it: the fraction depth / span of how far the aggregate
// went past the threshold towards the exit, so a payout is rounded once, on the amount (SPEC §7). What
// events and the API show is that fraction rounded half-up to millionths (ppm, 0 … 1,000,000), for
// display and for the burning-cost rate only.

const FULL_SEVERITY_PPM = Number(MILLIONTHS);

/** `depth / span`, between 0 and 1 inclusive, span positive. */
export interface ExactSeverity {
  readonly depth: bigint;
  readonly span: bigint;
}

export const NO_SEVERITY: ExactSeverity = { depth: 0n, span: 1n };
export const FULL_SEVERITY: ExactSeverity = { depth: 1n, span: 1n };

/** The exact severity of going `depth` past the threshold on a way of `span` to the exit: capped at 1,
 *  and 1 when threshold and exit coincide. */
export const exactSeverity = (depth: bigint, span: bigint): ExactSeverity =>
  span === 0n || depth >= span ? FULL_SEVERITY : { depth, span };

/** The exact severity rounded half-up to millionths, as events and the API show it. */
export const severityPpmOfExact = ({ depth, span }: ExactSeverity): number =>
  Number(divideRounded(depth * MILLIONTHS, span));

/** The decimal the API and the events show (423077 → 0.423077). */
export const severityFraction = (severityPpm: number): number => decimalOfMillionths(BigInt(severityPpm));

/** The ppm of a severity read back from an event. */
export const severityPpmOf = (fraction: number): number => {
  const ppm = scaleExact(fraction, DECIMAL_PLACES);
  if (ppm === undefined || ppm < 0n || ppm > BigInt(FULL_SEVERITY_PPM)) {
    throw new RangeError(`${fraction} is not a severity with at most ${DECIMAL_PLACES} decimals`);
  }
  return Number(ppm);
};
