import { scaleExact, unscale } from './decimal';

// Severity is kept as an integer number of millionths (ppm): 0 … 1,000,000. It is rounded half-up to
// 6 decimals once, when a trigger is evaluated; every payout is then that exact severity times the sum
// insured, so a payout can be recomputed from the stored severity to the minor unit.

export const SEVERITY_PLACES = 6;
export const FULL_SEVERITY_PPM = 1_000_000;

/** The decimal the API and the events show (423077 → 0.423077). */
export const severityFraction = (severityPpm: number): number => unscale(BigInt(severityPpm), SEVERITY_PLACES);

/** The ppm of a severity read back from an event. */
export const severityPpmOf = (fraction: number): number => {
  const ppm = scaleExact(fraction, SEVERITY_PLACES);
  if (ppm === undefined || ppm < 0n || ppm > BigInt(FULL_SEVERITY_PPM)) {
    throw new RangeError(`${fraction} is not a severity with at most ${SEVERITY_PLACES} decimals`);
  }
  return Number(ppm);
};
