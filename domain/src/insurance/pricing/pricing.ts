import type { Cover, Peril, PolicyDataSources, PricingMethod, TermSheet } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import { type CoverTerm, termDays } from '../calendar/cover-term';
import type { IndexObservation } from '../index-data/index-observation';
import type { ReadingHistory } from '../index-data/reading-history';
import { type SeasonReadings, seasonsWithReadings } from '../index-data/season-readings';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { allocateMinorUnits } from '../money/minor-units';
import {
  addRationals,
  applyRate,
  commonNumerators,
  compareRationals,
  displayedDecimal,
  largerRational,
  multiplyRationals,
  ONE,
  type Rational,
  rationalOf,
  rationalOfDecimal,
  ZERO,
} from '../money/rational';
import { DEFAULT_PRODUCT } from '../term-sheet/builtin';
import { type ProductTerms, productCover } from '../term-sheet/product';
import { seasonsBackOf } from '../term-sheet/windows';
import { seasonLossPpm } from './burning-cost';
import { type PayerPremiumMinor, premiumShares } from './premium-shares';

/** Base rates are annual: a `term_days` cover pays term days / 365 of it (SPEC §7), so a 366-day term 366/365. */
const DAYS_PER_YEAR = 365n;

/** A sheet's pricing figures, as TERM-SHEETS.md §1.2 defaults them. */
const pricingOf = (sheet: TermSheet) => ({
  credibilitySeasons: sheet.pricing?.credibility_seasons ?? 10,
  loading: sheet.pricing?.loading ?? 1.3,
  floorOfBaseRate: sheet.pricing?.floor_of_base_rate ?? 0.5,
  maximumRate: sheet.pricing?.maximum_rate ?? 0.5,
});

export interface PricingRequest {
  readonly perils: readonly Peril[];
  readonly sumInsuredMinor: number;
  readonly hasIrrigation: boolean;
  readonly term: CoverTerm;
  readonly today: string;
  readonly history: ReadingHistory;
  /** The data each peril reads: a cover read against a climatology prices on the one it froze. */
  readonly dataSources?: PolicyDataSources | undefined;
}

export interface PerilPrice {
  readonly peril: Peril;
  readonly rate: Rational;
  readonly premiumMinor: number;
  /** `burning_cost` when any complete past season was blended in. */
  readonly method: PricingMethod;
  readonly seasonsUsed: number;
  /** Z = n / (n + k): the weight of the seasons' burning cost against the base rate. */
  readonly credibility: Rational;
}

export interface Pricing {
  readonly rate: Rational;
  readonly premiumMinor: number;
  readonly perils: readonly PerilPrice[];
  /** Who pays the premium, when the sheet splits it; they add up to `premiumMinor`. */
  readonly payers?: readonly PayerPremiumMinor[];
}

/** Each peril's past seasons, cut and converted once per list of readings: drought and flood reading
 *  the same rainfall share one list, so it is cut once. */
const seasonsByPeril = (request: RatingRequest, sheet: TermSheet): ((peril: Peril) => readonly SeasonReadings[]) => {
  const seasons = new Map<readonly IndexObservation[], readonly SeasonReadings[]>();
  const yearsBack = seasonsBackOf(sheet, request.term);
  return (peril) => {
    const readings = request.history[peril] ?? [];
    const known = seasons.get(readings);
    if (known !== undefined) return known;
    const cut = seasonsWithReadings(request.term, request.today, readings, yearsBack);
    seasons.set(readings, cut);
    return cut;
  };
};

/** The cover's annual base rate × its adjustments (× the irrigated factor for an irrigated farm) × its
 *  exposure (term days / 365 for `term_days`, the whole season for `season`). */
const baseRateOf = (cover: Cover, request: RatingRequest): Rational => {
  const adjusted =
    request.hasIrrigation && cover.irrigated_factor !== undefined
      ? multiplyRationals(rationalOfDecimal(cover.base_rate), rationalOfDecimal(cover.irrigated_factor))
      : rationalOfDecimal(cover.base_rate);
  const exposure = cover.exposure === 'term_days' ? rationalOf(BigInt(termDays(request.term)), DAYS_PER_YEAR) : ONE;
  return multiplyRationals(adjusted, exposure);
};

export type PerilRate = Omit<PerilPrice, 'premiumMinor'>;

const perilRate = (
  cover: Cover,
  sheet: TermSheet,
  request: RatingRequest,
  seasonsOf: (peril: Peril) => readonly SeasonReadings[],
): PerilRate => {
  const baseRate = baseRateOf(cover, request);
  // Only complete seasons are history: ten seasons of one reading each must not price a cover.
  const losses = seasonsOf(cover.peril).flatMap(
    (season) => seasonLossPpm(cover, sheet.amounts, season, request.dataSources?.[cover.peril]) ?? [],
  );
  const { credibilitySeasons, loading, floorOfBaseRate } = pricingOf(sheet);
  const n = BigInt(losses.length);
  const weight = n + BigInt(credibilitySeasons);
  const total = losses.reduce((sum, loss) => sum + BigInt(loss), 0n);
  // Z × burning cost = n/(n+k) × (Σ losses / n) × loading = Σ losses × loading / (n+k): the n cancels, so
  // no season count divides anything and 0 seasons is simply the base rate.
  const credibleBurningCost = multiplyRationals(rationalOf(total, MILLIONTHS * weight), rationalOfDecimal(loading));
  const creditedBaseRate = multiplyRationals(rationalOf(weight - n, weight), baseRate);
  const blended = addRationals(credibleBurningCost, creditedBaseRate);
  return {
    peril: cover.peril,
    rate: largerRational(blended, multiplyRationals(baseRate, rationalOfDecimal(floorOfBaseRate))),
    method: n > 0n ? 'burning_cost' : 'base_rate',
    seasonsUsed: losses.length,
    credibility: rationalOf(n, weight),
  };
};

/** What a cover's rates depend on: everything the pricing reads but the sum insured. */
export type RatingRequest = Omit<PricingRequest, 'sumInsuredMinor'>;

/** Each peril's exact rate and their sum. */
export interface CoverRates {
  readonly rate: Rational;
  readonly perils: readonly PerilRate[];
}

/** How a cover is rated: `rateCover`, or a caller's memo of it. */
export type RateCover = (request: RatingRequest, product: ProductTerms) => CoverRates;

/** The rates of a cover (TERM-SHEETS.md §2.7): each peril's burning cost over its complete past seasons
 *  blended with its base rate by credibility, and their sum; the sheet's limit is left out (conservative,
 *  as the sum insured is). Refused when the sum reaches the sheet's maximum (`uninsurable`). A pure
 *  function of the request and the product, which is what lets a caller keep its result. */
export const rateCover: RateCover = (request, { sheet }) => {
  const seasonsOf = seasonsByPeril(request, sheet);
  const rates =
    sheet.pricing?.method === 'fixed_rate'
      ? fixedRates(sheet, request.perils)
      : request.perils.map((peril) => perilRate(productCover(sheet, peril), sheet, request, seasonsOf));
  const rate = rates.reduce((sum, peril) => addRationals(sum, peril.rate), ZERO);
  const { maximumRate } = pricingOf(sheet);
  if (compareRationals(rate, rationalOfDecimal(maximumRate)) >= 0) {
    throw new DomainError(
      'rejected',
      'uninsurable',
      `the cover's rate ${displayedDecimal(rate)} reaches the maximum of ${maximumRate}: ` +
        rates.map((peril) => `${peril.peril} ${displayedDecimal(peril.rate)}`).join(', '),
    );
  }
  return { rate, perils: rates };
};

/** A published rate (`pricing: {method: fixed_rate, rate}`): the rate of the whole cover bought, shown per
 *  peril in proportion to the perils' base rates (equally when those are all 0). */
const fixedRates = (sheet: TermSheet, perils: readonly Peril[]): PerilRate[] => {
  const rate = rationalOfDecimal(sheet.pricing!.rate!);
  const weights = perils.map((peril) => millionthsOf(productCover(sheet, peril).base_rate));
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  return perils.map((peril, at) => ({
    peril,
    rate:
      total === 0n
        ? multiplyRationals(rate, rationalOf(1n, BigInt(perils.length)))
        : multiplyRationals(rate, rationalOf(weights[at]!, total)),
    method: 'fixed_rate',
    seasonsUsed: 0,
    credibility: ZERO,
  }));
};

/** The premium of a cover: Σ peril rates × sum insured, rounded half-up to the minor unit once, split
 *  over the perils by their exact rates so the parts add up to the premium exactly. Refused when the
 *  rate reaches the sheet's maximum (`uninsurable`) or the premium rounds to nothing
 *  (`premium_too_small`). Quote and issue both call this, through priceCover, which may hand over the
 *  rates from a memo of `rateCover`. */
export const priceQuote = (
  request: PricingRequest,
  product: ProductTerms = DEFAULT_PRODUCT,
  { rate, perils: rates }: CoverRates = rateCover(request, product),
): Pricing => {
  const shares = product.sheet.pricing?.premium_shares;
  const rounding = product.sheet.pricing?.share_rounding ?? 'remainder_to_first';
  const rounded = applyRate(rate, request.sumInsuredMinor);
  const payers =
    shares === undefined
      ? undefined
      : premiumShares(shares, rounding, rounded, { rate, sumInsuredMinor: request.sumInsuredMinor });
  const premiumMinor =
    payers === undefined || rounding !== 'each' ? rounded : payers.reduce((sum, payer) => sum + payer.premiumMinor, 0);
  if (premiumMinor < 1) {
    throw new DomainError(
      'rejected',
      'premium_too_small',
      `the premium at rate ${displayedDecimal(rate)} rounds to less than one minor unit of the currency`,
    );
  }
  const premiums = allocateMinorUnits(premiumMinor, commonNumerators(rates.map((peril) => peril.rate)));
  return {
    rate,
    premiumMinor,
    perils: rates.map((peril, position) => ({ ...peril, premiumMinor: premiums[position]! })),
    ...(payers === undefined ? {} : { payers }),
  };
};
