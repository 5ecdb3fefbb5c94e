import type { PolicyDataSources, Quote, QuoteRequest } from '@cropcover/contracts';
import type { Farm } from '../../farms/farm';
import { PLATFORM_VERSION } from '../../platform-version';
import { dataOfPeril } from '../index-data/peril-data';
import type { ReadingHistory } from '../index-data/reading-history';
import { toMajorUnits } from '../money/minor-units';
import { displayedDecimal } from '../money/rational';
import type { RateCover } from '../pricing/pricing';
import { DEFAULT_PRODUCT } from '../term-sheet/builtin';
import type { ProductTerms } from '../term-sheet/product';
import { defaultQuoteTerm, priceCover } from './priced-cover';

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
  /** The product version priced; `default` when absent. */
  readonly product?: ProductTerms;
}

/** POST /insurance/quote: the price the same cover would be issued at today. */
export const quoteCover = (command: QuoteCover): Quote => {
  const { request } = command;
  const product = command.product ?? DEFAULT_PRODUCT;
  const term =
    request.term_start !== undefined && request.term_end !== undefined
      ? { start: request.term_start, end: request.term_end }
      : defaultQuoteTerm(command.today, product);
  const cover = priceCover(
    {
      farm: command.farm,
      perils: request.perils,
      sumInsured: request.sum_insured,
      exposureUnits: request.exposure_units,
      currency: request.currency,
      term,
      today: command.today,
      history: command.history,
      dataSources: command.dataSources,
      rateCover: command.rateCover,
    },
    product,
  );
  const { currency, pricing } = cover;
  return {
    farm_id: request.farm_id,
    field_id: request.field_id,
    perils: [...request.perils],
    sum_insured: toMajorUnits(cover.sumInsuredMinor, currency),
    currency,
    rate: displayedDecimal(pricing.rate),
    premium: toMajorUnits(pricing.premiumMinor, currency),
    breakdown: Object.fromEntries(
      pricing.perils.map((price) => [
        price.peril,
        {
          rate: displayedDecimal(price.rate),
          premium: toMajorUnits(price.premiumMinor, currency),
          method: price.method,
          seasons_used: price.seasonsUsed,
          credibility: displayedDecimal(price.credibility),
        },
      ]),
    ),
    ...(request.exposure_units === undefined ? {} : { exposure_units: request.exposure_units }),
    ...(pricing.payers === undefined
      ? {}
      : {
          premium_shares: pricing.payers.map(({ payer, share, premiumMinor }) => ({
            payer,
            share,
            premium: toMajorUnits(premiumMinor, currency),
          })),
        }),
    term_start: term.start,
    term_end: term.end,
    data_sources: Object.fromEntries(request.perils.map((peril) => [peril, dataOfPeril(command.dataSources, peril)])),
    product: product.ref,
    platform_version: PLATFORM_VERSION,
  };
};
