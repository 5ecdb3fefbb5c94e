import {
  isIsoCurrency,
  type Peril,
  type PolicyDataSources,
  type TermSheet,
  type TriggerTerms,
} from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import type { Farm, RegisteredFarm } from '../../farms/farm';
import { addDays, shiftYearsBack } from '../calendar/calendar-date';
import { type CoverTerm, termDays } from '../calendar/cover-term';
import type { ReadingHistory } from '../index-data/reading-history';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { multiplyMinorUnits, toMajorUnits, toMinorUnits } from '../money/minor-units';
import { type Pricing, type PricingRequest, priceQuote, type RateCover, rateCover } from '../pricing/pricing';
import { DEFAULT_PRODUCT, triggerTermsFor } from '../term-sheet/builtin';
import { checkClimatologyBlocks, coverClimatology } from '../term-sheet/climatology-blocks';
import { type ProductTerms, productCover } from '../term-sheet/product';
import { checkSourcePeriods } from '../term-sheet/source-periods';
import { windowErrors } from '../term-sheet/validate';
import { seasonStartingIn, seasonStartingOnOrAfter } from '../term-sheet/windows';
import { refuseKnownLoss } from './known-loss';

export const MAX_TERM_DAYS = 366;
/** Cover may start at most this many days before today (SPEC §7: no retroactive cover). */
export const MAX_BACKDATING_DAYS = 7;
const DEFAULT_CURRENCY = 'USD';

/** What quote and issue both ask for, so they cannot price differently. */
export interface CoverRequest {
  readonly farm: Farm;
  readonly perils: readonly Peril[];
  /** Major units of the currency, as on the wire. */
  readonly sumInsured: number;
  /** For a product insured per exposure unit: how many (acres, head, …). */
  readonly exposureUnits?: number | undefined;
  readonly currency: string | undefined;
  readonly term: CoverTerm;
  readonly today: string;
  readonly history: ReadingHistory;
  /** The data each peril reads, with the climatology it froze for a sheet that reads one. */
  readonly dataSources?: PolicyDataSources;
  /** Rates the cover; `rateCover` when absent. */
  readonly rateCover?: RateCover;
}

export interface PricedCover {
  readonly farm: RegisteredFarm;
  readonly product: ProductTerms;
  readonly currency: string;
  readonly sumInsuredMinor: number;
  readonly term: CoverTerm;
  /** The `default` product's covers as trigger terms (what `PolicyIssued.triggers` has always held);
   *  empty for any other product. */
  readonly triggers: readonly TriggerTerms[];
  readonly pricing: Pricing;
}

/** The term a quote prices when none is given: the product's next season starting no earlier than the
 *  backdating allows, or one year from today, both ends included. */
export const defaultQuoteTerm = (today: string, product: Pick<ProductTerms, 'sheet'> = DEFAULT_PRODUCT): CoverTerm =>
  product.sheet.season === undefined
    ? { start: today, end: addDays(shiftYearsBack(today, -1), -1) }
    : seasonStartingOnOrAfter(product.sheet.season, addDays(today, -MAX_BACKDATING_DAYS));

const checkTerm = (term: CoverTerm, today: string): void => {
  if (term.end <= term.start) {
    throw new DomainError('rejected', 'invalid_term', 'term_end must be after term_start');
  }
  if (termDays(term) > MAX_TERM_DAYS) {
    throw new DomainError('rejected', 'invalid_term', `the term may cover at most ${MAX_TERM_DAYS} days`);
  }
  if (term.start < addDays(today, -MAX_BACKDATING_DAYS)) {
    throw new DomainError(
      'rejected',
      'retroactive_cover',
      `term_start may be at most ${MAX_BACKDATING_DAYS} days before today (${today})`,
    );
  }
};

/** TERM-SHEETS.md §2.3: the perils are covers of the product, every required one is there, the term is
 *  the product's season in one year (when it has one) and holds every window. */
const checkProduct = ({ sheet }: ProductTerms, perils: readonly Peril[], term: CoverTerm): void => {
  for (const peril of perils) productCover(sheet, peril);
  const missing = sheet.covers.filter((cover) => cover.required === true && !perils.includes(cover.peril));
  if (missing.length > 0) {
    throw new DomainError(
      'rejected',
      'required_peril_missing',
      `the product requires ${missing.map((cover) => cover.peril).join(', ')} in perils`,
    );
  }
  refuseTermOffSeason(sheet, term);
  refuseWindowsOutsideTerm(sheet, perils, term);
};

/** 422 `term_not_product_season` unless the term is the sheet's season in one year (when it has one). */
export const refuseTermOffSeason = (sheet: TermSheet, term: CoverTerm): void => {
  if (sheet.season === undefined) return;
  const season = seasonStartingIn(sheet.season, Number(term.start.slice(0, 4)));
  if (season.start !== term.start || season.end !== term.end) {
    throw new DomainError(
      'rejected',
      'term_not_product_season',
      `the product's season runs ${sheet.season.from} to ${sheet.season.to}: a term of ${season.start} to ${season.end}`,
    );
  }
};

/** 422 `window_outside_term` unless the term holds every window of the covers of `perils`. */
export const refuseWindowsOutsideTerm = (sheet: TermSheet, perils: readonly Peril[], term: CoverTerm): void => {
  // A rolling index longer than a short term is allowed: the default product's 30-day NDVI mean on a
  // 10-day term reads the days there are, as it always has.
  // Paths name the product's own covers (`covers.2.phases.0.window`): the sheet is checked whole and only
  // the covers bought are held to it.
  const bought = new Set(sheet.covers.flatMap((cover, at) => (perils.includes(cover.peril) ? [`covers.${at}`] : [])));
  const outside = windowErrors(sheet, term).filter(
    (found) => found.code !== 'aggregate_invalid' && bought.has(found.path.split('.', 2).join('.')),
  );
  if (outside.length > 0) {
    throw new DomainError(
      'rejected',
      'window_outside_term',
      `the term ${term.start} to ${term.end} does not hold the product's windows: ${outside
        .map((found) => `${found.path} ${found.message}`)
        .join('; ')}`,
      outside.map((found) => ({ ...found })),
    );
  }
};

/** A cover fits the source it reads: its blocks and sowing the source's cadence, and a cover read against
 *  a climatology froze one whose periods the term's blocks are. */
const checkCoverSources = (
  { sheet }: ProductTerms,
  perils: readonly Peril[],
  term: CoverTerm,
  dataSources: PolicyDataSources | undefined,
): void => {
  for (const peril of perils) {
    const cover = productCover(sheet, peril);
    const data = dataSources?.[peril];
    checkSourcePeriods(cover, term, data?.cadence, data?.location ?? 'the field');
    const named = coverClimatology(cover);
    if (named === undefined) continue;
    if (data?.climatology === undefined) {
      throw new DomainError(
        'rejected',
        'no_climatology',
        `${peril} reads climatology ${named.name}: its data source has none for ${data?.location ?? 'the field'}`,
      );
    }
    checkClimatologyBlocks(cover, term, data.climatology, data.location, data.cadence);
  }
};

const checkCurrency = ({ sheet }: ProductTerms, currency: string): void => {
  if (sheet.amounts.unit !== 'share' && sheet.amounts.currency !== currency) {
    throw new DomainError(
      'rejected',
      'currency_mismatch',
      `the product's amounts are in ${sheet.amounts.currency}: it sells in ${sheet.amounts.currency}, not ${currency}`,
    );
  }
};

/** The sum insured in minor units: as asked, or for a product insured per exposure unit what the exposure
 *  units make (× the sheet's value, rounded once half up), which an asked sum insured must be. */
const sumInsuredOf = (
  { sheet }: ProductTerms,
  request: Pick<CoverRequest, 'sumInsured' | 'exposureUnits'>,
  currency: string,
): number => {
  const asked = toMinorUnits(request.sumInsured, currency);
  if (sheet.amounts.unit !== 'per_exposure_unit') {
    if (request.exposureUnits !== undefined) {
      throw new DomainError(
        'rejected',
        'invalid_amount',
        'exposure_units is for a product insured per exposure unit: this one is insured for sum_insured',
      );
    }
    return asked;
  }
  const { exposure_unit: unit, value_minor: value } = sheet.amounts;
  if (request.exposureUnits === undefined) {
    throw new DomainError(
      'rejected',
      'exposure_unit_missing',
      `the product is insured per ${unit}: name the ${unit}s insured in exposure_units`,
    );
  }
  const made = multiplyMinorUnits(value, millionthsOf(request.exposureUnits), MILLIONTHS);
  if (made !== asked) {
    throw new DomainError(
      'rejected',
      'invalid_amount',
      `${request.exposureUnits} ${unit}s × ${toMajorUnits(value, currency)} insure ${toMajorUnits(made, currency)}, ` +
        `not the sum_insured of ${request.sumInsured}`,
    );
  }
  return made;
};

const priceRated = (request: PricingRequest, product: ProductTerms, rate: RateCover): Pricing =>
  priceQuote(request, product, rate(request, product));

/** The farm a cover is written on: 404 when the registry does not hold it. */
export const registeredFarmOf = (farm: Farm): RegisteredFarm => {
  if (farm.status !== 'registered') throw new DomainError('not_found', 'not_found', 'no such farm');
  return farm;
};

/** Checks a cover against the farm, the product, the term rules and the data already in (known loss) and
 *  prices it. `history` holds every reading of each peril's data, today's included. */
export const priceCover = (request: CoverRequest, product: ProductTerms = DEFAULT_PRODUCT): PricedCover => {
  const farm = registeredFarmOf(request.farm);
  if (!farm.isActive) throw new DomainError('rejected', 'farm_inactive', `farm ${farm.farmId} is not active`);
  if (request.perils.length === 0 || new Set(request.perils).size !== request.perils.length) {
    throw new DomainError('rejected', 'invalid_perils', 'perils must be a non-empty list without repeats');
  }
  checkTerm(request.term, request.today);
  checkProduct(product, request.perils, request.term);
  const currency =
    request.currency ??
    (product.sheet.amounts.unit === 'share' ? undefined : product.sheet.amounts.currency) ??
    farm.attributes.currency ??
    DEFAULT_CURRENCY;
  // A farm registered while validation trusted the runtime's ICU may name a code since withdrawn.
  if (!isIsoCurrency(currency)) {
    throw new DomainError(
      'rejected',
      'invalid_currency',
      `the farm's currency ${currency} is not an active ISO 4217 code; name one in currency`,
    );
  }
  checkCurrency(product, currency);
  const sumInsuredMinor = sumInsuredOf(product, request, currency);
  if (sumInsuredMinor <= 0) throw new DomainError('rejected', 'invalid_amount', 'sum_insured must be greater than 0');
  checkCoverSources(product, request.perils, request.term, request.dataSources);
  refuseKnownLoss(product.sheet, request.perils, request.history, request.term, request.today, request.dataSources);
  const isDefault = product.ref.product_id === DEFAULT_PRODUCT.ref.product_id;
  return {
    farm,
    product,
    currency,
    sumInsuredMinor,
    term: request.term,
    triggers: isDefault ? request.perils.map((peril) => triggerTermsFor(peril, request.term, product.sheet)) : [],
    pricing: priceRated(
      {
        perils: request.perils,
        sumInsuredMinor,
        hasIrrigation: farm.attributes.has_irrigation,
        term: request.term,
        today: request.today,
        history: request.history,
        dataSources: request.dataSources,
      },
      product,
      request.rateCover ?? rateCover,
    ),
  };
};
