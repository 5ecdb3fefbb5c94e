import type { PolicyDataSources, Quote, QuoteRequest } from '@cropcover/contracts';
import { type Farm, quoteCover } from '@cropcover/domain';
import type { LoadedStream } from '../handle-command';
import type { ReadingHistoryCache } from '../readings/cached-reading-history';

/** Quotes kept at once: one is ~1 kB with its key, so ~1 MB. */
export const DEFAULT_MAX_PRICED_QUOTES = 1_000;

export interface QuoteInputs {
  readonly request: QuoteRequest;
  readonly farm: LoadedStream<Farm>;
  readonly today: string;
  readonly dataSources: PolicyDataSources;
}

/**
 * Quotes by everything they are priced from: the request, the farm's stream revision, today, the data
 * each peril reads and the versions of those locations' readings. Pricing 30 seasons of four perils
 * costs milliseconds of CPU; asked again with none of those changed, the quote is the same one, its money
 * the same exact minor units, so it is answered as kept. A refusal (known loss, uninsurable) is not kept.
 * The least recently asked goes first beyond `maxQuotes`.
 */
export const pricedQuotes = (readings: ReadingHistoryCache, maxQuotes: number = DEFAULT_MAX_PRICED_QUOTES) => {
  const quotes = new Map<string, Quote>();
  return async ({ request, farm, today, dataSources }: QuoteInputs): Promise<Quote> => {
    const versions = await readings.versionsOf(dataSources);
    const key = JSON.stringify([versions.key, farm.expected, today, request, dataSources]);
    const known = quotes.get(key);
    if (known !== undefined) {
      quotes.delete(key);
      quotes.set(key, known);
      return known;
    }
    const history = await readings.readAt({ sources: dataSources }, versions);
    const quote = quoteCover({ request, farm: farm.state, today, dataSources, history });
    quotes.set(key, quote);
    if (quotes.size > maxQuotes) quotes.delete(quotes.keys().next().value!);
    return quote;
  };
};
