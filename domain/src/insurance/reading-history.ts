import type { ReadingIndex } from '@cropcover/contracts';
import type { IndexObservation } from './trigger-evaluation';

/** The field's readings by index, each in ascending date order. */
export type ReadingHistory = Partial<Record<ReadingIndex, readonly IndexObservation[]>>;

export interface ReadingHistoryQuery {
  readonly farmId: string;
  readonly fieldId: string;
  readonly indices: readonly ReadingIndex[];
  /** First date included; absent = as far back as the readings go (pricing looks at past seasons). */
  readonly from?: string;
  /** Last date included; absent = up to the latest reading. */
  readonly to?: string;
}

/** What evaluation and pricing need from outside the domain: the readings of a field. The deciders stay
 *  free of I/O; the application layer fills this from the read store and hands the deciders the result. */
export type ReadReadingHistory = (query: ReadingHistoryQuery) => Promise<ReadingHistory>;
