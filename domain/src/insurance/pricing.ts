import type { Peril, PricingMethod, ReadingIndex } from '@cropcover/contracts';
import type { CoverTerm } from './cover-term';
import { divideRounded, largerOf, scaleExact, unscale } from './decimal';
import { allocateMinorUnits, multiplyMinorUnits } from './money';
import { PRODUCT_CATALOG, type ProductCatalog, triggerTermsFor } from './product-catalog';
import { seasonSeverityPpm } from './season-severity';
import { pastSeasons } from './seasons';
import type { IndexObservation } from './trigger-evaluation';

// Rates are integers of millionths (ppm) like severities, so premium = rate × sum insured is one exact
// integer product rounded half-up to the minor unit.
const RATE_PLACES = 6;
const PPM = 1_000_000n;

/** The field's readings by index, as far back as they go. */
export type ReadingHistory = Partial<Record<ReadingIndex, readonly IndexObservation[]>>;

export interface PricingRequest {
  readonly perils: readonly Peril[];
  readonly sumInsuredMinor: number;
  readonly hasIrrigation: boolean;
  readonly term: CoverTerm;
  readonly today: string;
  readonly history: ReadingHistory;
}

export interface PerilPrice {
  readonly peril: Peril;
  readonly ratePpm: number;
  readonly premiumMinor: number;
  readonly method: PricingMethod;
  readonly seasonsUsed: number;
}

export interface Pricing {
  readonly ratePpm: number;
  readonly premiumMinor: number;
  readonly perils: readonly PerilPrice[];
}

const ppmOf = (fraction: number): bigint => {
  const ppm = scaleExact(fraction, RATE_PLACES);
  if (ppm === undefined) throw new RangeError(`catalog factor ${fraction} has more than ${RATE_PLACES} decimals`);
  return ppm;
};

const earliestDate = (readings: readonly IndexObservation[]): string | undefined =>
  readings.reduce<string | undefined>(
    (earliest, { date }) => (earliest === undefined || date < earliest ? date : earliest),
    undefined,
  );

const perilRate = (
  peril: Peril,
  request: PricingRequest,
  catalog: ProductCatalog,
): { ratePpm: bigint; method: PricingMethod; seasonsUsed: number } => {
  const rule = catalog.rules[peril];
  const baseRate = ppmOf(rule.baseRate);
  const terms = triggerTermsFor(peril, request.term, catalog);
  const readings = request.history[rule.reading] ?? [];
  const severities = pastSeasons(request.term, request.today, earliestDate(readings))
    .map((season) => seasonSeverityPpm(terms, readings, season))
    .filter((severity) => severity !== undefined);
  const { minimumSeasons, loading, floorOfBaseRate } = catalog.burningCost;
  if (severities.length >= minimumSeasons) {
    // Burning cost: the mean payout fraction of this very trigger over the past seasons, loaded.
    const total = severities.reduce((sum, severity) => sum + BigInt(severity), 0n);
    const burningCost = divideRounded(total * ppmOf(loading), BigInt(severities.length) * PPM);
    const floor = divideRounded(baseRate * ppmOf(floorOfBaseRate), PPM);
    return {
      ratePpm: largerOf(burningCost, floor),
      method: 'burning_cost',
      seasonsUsed: severities.length,
    };
  }
  const adjusted =
    request.hasIrrigation && rule.irrigatedFactor !== undefined
      ? divideRounded(baseRate * ppmOf(rule.irrigatedFactor), PPM)
      : baseRate;
  return { ratePpm: adjusted, method: 'base_rate', seasonsUsed: 0 };
};

/** The premium of a cover: Σ peril rates × sum insured rounded half-up to the minor unit, split over the
 *  perils by their rates so the parts add up to the premium exactly. Quote and issue both call this. */
export const priceQuote = (request: PricingRequest, catalog: ProductCatalog = PRODUCT_CATALOG): Pricing => {
  const rates = request.perils.map((peril) => ({ peril, ...perilRate(peril, request, catalog) }));
  const ratePpm = rates.reduce((sum, { ratePpm: rate }) => sum + rate, 0n);
  const premiumMinor = multiplyMinorUnits(request.sumInsuredMinor, ratePpm, PPM);
  const premiums = allocateMinorUnits(
    premiumMinor,
    rates.map(({ ratePpm: rate }) => rate),
  );
  return {
    ratePpm: Number(ratePpm),
    premiumMinor,
    perils: rates.map((rate, position) => ({
      peril: rate.peril,
      ratePpm: Number(rate.ratePpm),
      premiumMinor: premiums[position]!,
      method: rate.method,
      seasonsUsed: rate.seasonsUsed,
    })),
  };
};

/** The decimal the API shows (30000 → 0.03). */
export const rateFraction = (ratePpm: number): number => unscale(BigInt(ratePpm), RATE_PLACES);
