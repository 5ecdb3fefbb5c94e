import type { PolicyDataSources, Quote, QuoteRequest } from '@cropcover/contracts';
import type { Farm } from '../farms/farm';
import { PLATFORM_VERSION } from '../platform-version';
import { defaultQuoteTerm, priceCover } from './cover';
import { toMajorUnits } from './money';
import { dataOfPeril } from './peril-data';
import { displayedRate } from './premium-rate';
import type { RateCover } from './pricing';
import { PRODUCT_CATALOG, type ProductCatalog } from './product-catalog';
import type { ReadingHistory } from './reading-history';

export interface QuoteCover {
  readonly request: QuoteRequest;
  /** The farm as the registry holds it. */
  readonly farm: Farm;
  readonly today: string;
  /** The data each peril would read, resolved from the field as issue would freeze it. */
  readonly dataSources: PolicyDataSources;
  /** Each peril's past readings from that data; only complete past seasons count. */
  readonly history: ReadingHistory;
  /** Rates the cover; `rateCover` when absent. */
  readonly rateCover?: RateCover;
}

/** POST /insurance/quote: the price the same cover would be issued at today. */
export const quoteCover = (command: QuoteCover, catalog: ProductCatalog = PRODUCT_CATALOG): Quote => {
  const { request } = command;
  const term =
    request.term_start !== undefined && request.term_end !== undefined
      ? { start: request.term_start, end: request.term_end }
      : defaultQuoteTerm(command.today);
  const cover = priceCover(
    {
      farm: command.farm,
      perils: request.perils,
      sumInsured: request.sum_insured,
      currency: request.currency,
      term,
      today: command.today,
      history: command.history,
      rateCover: command.rateCover,
    },
    catalog,
  );
  const { currency, pricing } = cover;
  return {
    farm_id: request.farm_id,
    field_id: request.field_id,
    perils: [...request.perils],
    sum_insured: toMajorUnits(cover.sumInsuredMinor, currency),
    currency,
    rate: displayedRate(pricing.rate),
    premium: toMajorUnits(pricing.premiumMinor, currency),
    breakdown: Object.fromEntries(
      pricing.perils.map((price) => [
        price.peril,
        {
          rate: displayedRate(price.rate),
          premium: toMajorUnits(price.premiumMinor, currency),
          method: price.method,
          seasons_used: price.seasonsUsed,
          credibility: displayedRate(price.credibility),
        },
      ]),
    ),
    term_start: term.start,
    term_end: term.end,
    data_sources: Object.fromEntries(request.perils.map((peril) => [peril, dataOfPeril(command.dataSources, peril)])),
    platform_version: PLATFORM_VERSION,
  };
};
