import type { Peril, PolicyDataSources } from '@cropcover/contracts';
import type { IndexObservation } from './index-observation';

/** Each peril's readings from its own source and location, in ascending date order. Perils reading the
 *  same data may share one list. */
export type ReadingHistory = Partial<Record<Peril, readonly IndexObservation[]>>;

export interface ReadingHistoryQuery {
  /** The source, index and location each peril reads. */
  readonly sources: PolicyDataSources;
  /** First date included; absent = as far back as the readings go (pricing looks at past seasons). */
  readonly from?: string;
  /** Last date included; absent = up to the latest reading. */
  readonly to?: string;
}

/** What evaluation and pricing need from outside the domain: the readings of each peril's data. The
 *  deciders stay free of I/O; the application layer fills this from the read store and hands the
 *  deciders the result. */
export type ReadReadingHistory = (query: ReadingHistoryQuery) => Promise<ReadingHistory>;
