import type { Peril, PricingMethod } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { type CoverTerm, termDays } from './cover-term';
import { allocateMinorUnits } from './money';
import {
  addRates,
  applyRate,
  commonNumerators,
  compareRates,
  displayedRate,
  largerRate,
  multiplyRates,
  type PremiumRate,
  rateOf,
  rateOfDecimal,
  ZERO_RATE,
} from './premium-rate';
import { PRODUCT_CATALOG, type ProductCatalog, triggerTermsFor } from './product-catalog';
import type { ReadingHistory } from './reading-history';
import { type SeasonReadings, seasonsWithReadings } from './season-readings';
import { isCompleteSeason, seasonSeverityPpm } from './season-severity';
import { seasonTriggerTerms } from './season-terms';
import { type IndexObservation, triggerLevels } from './trigger-evaluation';

const PPM = 1_000_000n;
/** Base rates are annual: a term pays term days / 365 of it (SPEC §7), so a 366-day term 366/365. */
const DAYS_PER_YEAR = 365n;

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
  readonly rate: PremiumRate;
  readonly premiumMinor: number;
  /** `burning_cost` when any complete past season was blended in. */
  readonly method: PricingMethod;
  readonly seasonsUsed: number;
  /** Z = n / (n + k): the weight of the seasons' burning cost against the base rate. */
  readonly credibility: PremiumRate;
}

export interface Pricing {
  readonly rate: PremiumRate;
  readonly premiumMinor: number;
  readonly perils: readonly PerilPrice[];
}

/** Each peril's past seasons, cut and converted once per list of readings: drought and flood reading
 *  the same rainfall share one list, so it is cut once. */
const seasonsByPeril = (request: RatingRequest): ((peril: Peril) => readonly SeasonReadings[]) => {
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

/** The catalog's annual base rate × its adjustments (drought × 0.6 with irrigation) × the term's
 *  exposure (term days / 365). */
const termBaseRate = (peril: Peril, request: RatingRequest, catalog: ProductCatalog): PremiumRate => {
  const rule = catalog.rules[peril];
  const adjusted =
    request.hasIrrigation && rule.irrigatedFactor !== undefined
      ? multiplyRates(rateOfDecimal(rule.baseRate), rateOfDecimal(rule.irrigatedFactor))
      : rateOfDecimal(rule.baseRate);
  return multiplyRates(adjusted, rateOf(BigInt(termDays(request.term)), DAYS_PER_YEAR));
};

export type PerilRate = Omit<PerilPrice, 'premiumMinor'>;

const perilRate = (
  peril: Peril,
  request: RatingRequest,
  catalog: ProductCatalog,
  seasonsOf: (peril: Peril) => readonly SeasonReadings[],
): PerilRate => {
  const baseRate = termBaseRate(peril, request, catalog);
  const terms = triggerTermsFor(peril, request.term, catalog);
  const levels = triggerLevels(terms);
  // Only complete seasons are history: ten seasons of one reading each must not price a cover.
  const seasons = seasonsOf(peril).filter((season) => isCompleteSeason(levels, season));
  const { credibilitySeasons, loading, floorOfBaseRate } = catalog.pricing;
  const n = BigInt(seasons.length);
  const weight = n + BigInt(credibilitySeasons);
  // Each season is judged on its own days: a 366-day term's drought total over a 365-day season.
  const severities = seasons.reduce(
    (sum, season) => sum + BigInt(seasonSeverityPpm(seasonTriggerTerms(terms, request.term, season.season), season)),
    0n,
  );
  // Z × burning cost = n/(n+k) × (Σ severities / n) × loading = Σ severities × loading / (n+k): the n
  // cancels, so no season count divides anything and 0 seasons is simply the base rate.
  const credibleBurningCost = multiplyRates(rateOf(severities, PPM * weight), rateOfDecimal(loading));
  const creditedBaseRate = multiplyRates(rateOf(weight - n, weight), baseRate);
  const blended = addRates(credibleBurningCost, creditedBaseRate);
  return {
    peril,
    rate: largerRate(blended, multiplyRates(baseRate, rateOfDecimal(floorOfBaseRate))),
    method: n > 0n ? 'burning_cost' : 'base_rate',
    seasonsUsed: seasons.length,
    credibility: rateOf(n, weight),
  };
};

/** What a cover's rates depend on: everything the pricing reads but the sum insured. */
export type RatingRequest = Omit<PricingRequest, 'sumInsuredMinor'>;

/** Each peril's exact rate and their sum. */
export interface CoverRates {
  readonly rate: PremiumRate;
  readonly perils: readonly PerilRate[];
}

/** How a cover is rated: `rateCover`, or a caller's memo of it. */
export type RateCover = (request: RatingRequest, catalog: ProductCatalog) => CoverRates;

/** The rates of a cover: each peril's by burning cost blended with its base rate, and their sum.
 *  Refused when the sum reaches the catalog's maximum (`uninsurable`). A pure function of the request
 *  and the catalog, which is what lets a caller keep its result. */
export const rateCover: RateCover = (request, catalog) => {
  const seasonsOf = seasonsByPeril(request);
  const rates = request.perils.map((peril) => perilRate(peril, request, catalog, seasonsOf));
  const rate = rates.reduce((sum, peril) => addRates(sum, peril.rate), ZERO_RATE);
  const maximum = rateOfDecimal(catalog.pricing.maximumRate);
  if (compareRates(rate, maximum) >= 0) {
    throw new DomainError(
      'rejected',
      'uninsurable',
      `the cover's rate ${displayedRate(rate)} reaches the maximum of ${catalog.pricing.maximumRate}: ` +
        rates.map((peril) => `${peril.peril} ${displayedRate(peril.rate)}`).join(', '),
    );
  }
  return { rate, perils: rates };
};

/** The premium of a cover: Σ peril rates × sum insured, rounded half-up to the minor unit once, split
 *  over the perils by their exact rates so the parts add up to the premium exactly. Refused when the
 *  rate reaches the catalog's maximum (`uninsurable`) or the premium rounds to nothing
 *  (`premium_too_small`). Quote and issue both call this, through priceCover, which may hand over the
 *  rates from a memo of `rateCover`. */
export const priceQuote = (
  request: PricingRequest,
  catalog: ProductCatalog = PRODUCT_CATALOG,
  { rate, perils: rates }: CoverRates = rateCover(request, catalog),
): Pricing => {
  const premiumMinor = applyRate(rate, request.sumInsuredMinor);
  if (premiumMinor < 1) {
    throw new DomainError(
      'rejected',
      'premium_too_small',
      `the premium at rate ${displayedRate(rate)} rounds to less than one minor unit of the currency`,
    );
  }
  const premiums = allocateMinorUnits(premiumMinor, commonNumerators(rates.map((peril) => peril.rate)));
  return {
    rate,
    premiumMinor,
    perils: rates.map((peril, position) => ({ ...peril, premiumMinor: premiums[position]! })),
  };
};
