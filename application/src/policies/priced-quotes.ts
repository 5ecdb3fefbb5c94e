import type { PolicyDataSources, Quote, QuoteRequest } from '@cropcover/contracts';
import {
  type CoverRates,
  DEFAULT_PRODUCT,
  type Farm,
  type ProductTerms,
  quoteCover,
  type RateCover,
  rateCover,
} from '@cropcover/domain';
import type { LoadedStream } from '../handle-command';
import type { ReadingHistoryCache } from '../readings/cached-reading-history';

/** Quotes kept at once, and covers' rates: one is ~1 kB with its key, so ~2 MB for both. */
export const DEFAULT_MAX_PRICED_QUOTES = 1_000;

export interface QuoteInputs {
  readonly request: QuoteRequest;
  readonly farm: LoadedStream<Farm>;
  readonly today: string;
  readonly dataSources: PolicyDataSources;
  /** The product version to price; `default` when absent. */
  readonly product?: ProductTerms;
}

/** Keeps at most `max` entries, the least recently used going first. */
const recentlyUsed = <Value>(max: number) => {
  const entries = new Map<string, Value>();
  return {
    get: (key: string): Value | undefined => {
      const known = entries.get(key);
      if (known !== undefined) {
        entries.delete(key);
        entries.set(key, known);
      }
      return known;
    },
    set: (key: string, value: Value): void => {
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
};

/**
 * Quotes by everything they are priced from: the request, the product version (its sheet's digest), the
 * farm's stream revision, today, the data each peril reads and the versions of those locations' readings. Pricing 30 seasons of four perils
 * costs milliseconds of CPU; asked again with none of those changed, the quote is the same one, its money
 * the same exact minor units, so it is answered as kept. A cover not asked before on the same data and
 * term (another sum insured, another farm's field on the same cell) reuses its rates — they depend on
 * neither — and only its premium is worked out. Refusals (known loss, uninsurable) are not kept. The
 * least recently asked go first beyond `maxQuotes` of each.
 */
export const pricedQuotes = (readings: ReadingHistoryCache, maxQuotes: number = DEFAULT_MAX_PRICED_QUOTES) => {
  const quotes = recentlyUsed<Quote>(maxQuotes);
  const rates = recentlyUsed<CoverRates>(maxQuotes);
  // The history a rating reads is named by the data and its versions; the rest of what it reads is in
  // the rating request itself.
  const ratedOn =
    (dataKey: string): RateCover =>
    (rating, product) => {
      const key = JSON.stringify([
        dataKey,
        product.ref.digest,
        rating.perils,
        rating.hasIrrigation,
        rating.term,
        rating.today,
      ]);
      const known = rates.get(key);
      if (known !== undefined) return known;
      const rated = rateCover(rating, product);
      rates.set(key, rated);
      return rated;
    };
  return async ({ request, farm, today, dataSources, product = DEFAULT_PRODUCT }: QuoteInputs): Promise<Quote> => {
    const versions = await readings.versionsOf(dataSources);
    const key = JSON.stringify([versions.key, product.ref, farm.expected, today, request, dataSources]);
    const known = quotes.get(key);
    if (known !== undefined) return known;
    const history = await readings.readAt({ sources: dataSources }, versions);
    const rateOnData = ratedOn(JSON.stringify([versions.key, dataSources]));
    const quote = quoteCover({
      request,
      farm: farm.state,
      today,
      dataSources,
      history,
      rateCover: rateOnData,
      product,
    });
    quotes.set(key, quote);
    return quote;
  };
};
