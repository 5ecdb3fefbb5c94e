import type { Peril, PricingMethod } from '@cropcover/contracts';
import type { CoverTerm } from './cover-term';
import { divideRounded, largerOf, scaleExact, unscale } from './decimal';
import { allocateMinorUnits, multiplyMinorUnits } from './money';
import { PRODUCT_CATALOG, type ProductCatalog, triggerTermsFor } from './product-catalog';
import type { ReadingHistory } from './reading-history';
import { type SeasonReadings, seasonsWithReadings } from './season-readings';
import { isCompleteSeason, seasonSeverityPpm } from './season-severity';
import { type IndexObservation, triggerLevels } from './trigger-evaluation';

// Rates are integers of millionths (ppm) like severities, so premium = rate × sum insured is one exact
// integer product rounded half-up to the minor unit.
const RATE_PLACES = 6;
const PPM = 1_000_000n;

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

/** Each peril's past seasons, cut and converted once per list of readings: drought and flood reading
 *  the same rainfall share one list, so it is cut once. */
const seasonsByPeril = (request: PricingRequest): ((peril: Peril) => readonly SeasonReadings[]) => {
  const seasons = new Map<readonly IndexObservation[], readonly SeasonReadings[]>();
  return (peril) => {
    const readings = request.history[peril] ?? [];
    const known = seasons.get(readings);
    if (known !== undefined) return known;
    const cut = seasonsWithReadings(request.term, request.today, readings);
    seasons.set(readings, cut);
    return cut;
  };
};

const perilRate = (
  peril: Peril,
  request: PricingRequest,
  catalog: ProductCatalog,
  seasonsOf: (peril: Peril) => readonly SeasonReadings[],
): { ratePpm: bigint; method: PricingMethod; seasonsUsed: number } => {
  const rule = catalog.rules[peril];
  const baseRate = ppmOf(rule.baseRate);
  const terms = triggerTermsFor(peril, request.term, catalog);
  const levels = triggerLevels(terms);
  // Only complete seasons are history: ten seasons of one reading each must not price a cover.
  const seasons = seasonsOf(peril).filter((season) => isCompleteSeason(levels, season));
  const { minimumSeasons, loading, floorOfBaseRate } = catalog.burningCost;
  // Seasons are counted before any severity is computed: too few and the base rate applies anyway.
  if (seasons.length >= minimumSeasons) {
    // Burning cost: the mean payout fraction of this very trigger over the past seasons, loaded.
    const total = seasons.reduce((sum, season) => sum + BigInt(seasonSeverityPpm(terms, season)), 0n);
    const burningCost = divideRounded(total * ppmOf(loading), BigInt(seasons.length) * PPM);
    const floor = divideRounded(baseRate * ppmOf(floorOfBaseRate), PPM);
    return {
      ratePpm: largerOf(burningCost, floor),
      method: 'burning_cost',
      seasonsUsed: seasons.length,
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
  const seasonsOf = seasonsByPeril(request);
  const rates = request.perils.map((peril) => ({ peril, ...perilRate(peril, request, catalog, seasonsOf) }));
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
