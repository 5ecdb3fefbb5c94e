import type { FarmerKeys, HistoryBackfills, QuoteInputs } from '@cropcover/application';
import type { PolicyEnvironment, Quote } from '@cropcover/contracts';
import type { IndexSourceDefaults, ReadReadingHistory } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { ReadYourWrites } from './read-your-writes';

export interface CommandApiDeps {
  /** The log as the commands see it: farmers' personal data sealed on append, opened on read. */
  readonly eventStore: EventStore;
  /** The farmers' data keys: erasure destroys one. */
  readonly farmerKeys: FarmerKeys;
  readonly clock: Clock;
  readonly readYourWrites: ReadYourWrites;
  /** Read models the commands consult: index readings for pricing and evaluation, payouts to settle. */
  readonly db: Kysely<ReadModels>;
  /** The readings quote and issue price from: the process's reading-history cache, checked against the
   *  readings' versions on every read. */
  readonly pricingReadings: ReadReadingHistory;
  /** Prices a quote, or answers the one priced from the very same inputs (`pricedQuotes`). */
  readonly priceQuote: (inputs: QuoteInputs) => Promise<Quote>;
  /** The server's APP_ENV, recorded on every policy it issues. */
  readonly environment: PolicyEnvironment;
  /** WEBHOOK_ALLOW_INSECURE: webhook URLs may be http and private hosts (local development, tests). */
  readonly webhookAllowInsecure: boolean;
  /** INDEX_SOURCE_DEFAULTS: what a quote or issue naming no source for a peril reads. */
  readonly indexSourceDefaults: IndexSourceDefaults;
  /** INDEX-DATA.md §2: where ingested files are kept, and the size from which one is ingested as a job. */
  readonly indexFiles: { readonly directory: string; readonly jobBytes: number };
  /** INDEX-DATA.md §2.2: the history of a location of interest, read from the kept files when first needed. */
  readonly historyBackfills: HistoryBackfills;
  /** For what a job running after its answer has no caller to tell. */
  readonly logger: Logger;
}
