import { isIsoCurrency, type Peril, type TriggerTerms } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { Farm, RegisteredFarm } from '../farms/farm';
import { addDays, shiftYearsBack } from './calendar-date';
import { type CoverTerm, termDays } from './cover-term';
import { refuseKnownLoss } from './known-loss';
import { toMinorUnits } from './money';
import { type Pricing, type PricingRequest, priceQuote, type RateCover, rateCover } from './pricing';
import { PRODUCT_CATALOG, type ProductCatalog, triggerTermsFor } from './product-catalog';
import type { ReadingHistory } from './reading-history';

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
  readonly currency: string | undefined;
  readonly term: CoverTerm;
  readonly today: string;
  readonly history: ReadingHistory;
  /** Rates the cover; `rateCover` when absent. */
  readonly rateCover?: RateCover;
}

export interface PricedCover {
  readonly farm: RegisteredFarm;
  readonly currency: string;
  readonly sumInsuredMinor: number;
  readonly term: CoverTerm;
  readonly triggers: readonly TriggerTerms[];
  readonly pricing: Pricing;
}

/** The term a quote prices when none is given: one year from today, both ends included. */
export const defaultQuoteTerm = (today: string): CoverTerm => ({
  start: today,
  end: addDays(shiftYearsBack(today, -1), -1),
});

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

const priceRated = (request: PricingRequest, catalog: ProductCatalog, rate: RateCover): Pricing =>
  priceQuote(request, catalog, rate(request, catalog));

/** The farm a cover is written on: 404 when the registry does not hold it. */
export const registeredFarmOf = (farm: Farm): RegisteredFarm => {
  if (farm.status !== 'registered') throw new DomainError('not_found', 'not_found', 'no such farm');
  return farm;
};

/** Checks a cover against the farm, the term rules and the data already in (known loss) and prices it
 *  with the catalog. `history` holds every reading of each peril's data, today's included. */
export const priceCover = (request: CoverRequest, catalog: ProductCatalog = PRODUCT_CATALOG): PricedCover => {
  const farm = registeredFarmOf(request.farm);
  if (!farm.isActive) throw new DomainError('rejected', 'farm_inactive', `farm ${farm.farmId} is not active`);
  if (request.perils.length === 0 || new Set(request.perils).size !== request.perils.length) {
    throw new DomainError('rejected', 'invalid_perils', 'perils must be a non-empty list without repeats');
  }
  checkTerm(request.term, request.today);
  const currency = request.currency ?? farm.attributes.currency ?? DEFAULT_CURRENCY;
  // A farm registered while validation trusted the runtime's ICU may name a code since withdrawn.
  if (!isIsoCurrency(currency)) {
    throw new DomainError(
      'rejected',
      'invalid_currency',
      `the farm's currency ${currency} is not an active ISO 4217 code; name one in currency`,
    );
  }
  const sumInsuredMinor = toMinorUnits(request.sumInsured, currency);
  if (sumInsuredMinor <= 0) throw new DomainError('rejected', 'invalid_amount', 'sum_insured must be greater than 0');
  const triggers = request.perils.map((peril) => triggerTermsFor(peril, request.term, catalog));
  refuseKnownLoss(triggers, request.history, request.term, request.today);
  return {
    farm,
    currency,
    sumInsuredMinor,
    term: request.term,
    triggers,
    pricing: priceRated(
      {
        perils: request.perils,
        sumInsuredMinor,
        hasIrrigation: farm.attributes.has_irrigation,
        term: request.term,
        today: request.today,
        history: request.history,
      },
      catalog,
      request.rateCover ?? rateCover,
    ),
  };
};
