import type { RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels, ReadModelTable } from '@cropcover/read-store';
import type { Transaction } from 'kysely';

/** Turns events of the log into rows of read-model tables. */
export interface Projection {
  /** Names the projection's checkpoint; a new name starts over from the beginning of the log. */
  readonly name: string;
  /** The tables it writes, emptied when it is rebuilt. */
  readonly tables: readonly ReadModelTable[];
  /**
   * Applies a batch of events, in log order, inside the batch's transaction. A whole batch rather than
   * one event: a projection can then read the rows the batch touches once and write them back once, a
   * few statements per batch instead of one or two per event (what makes a rebuild fast). Applying an
   * event a second time must change nothing, and event types the projection does not handle are ignored.
   */
  apply(trx: Transaction<ReadModels>, events: readonly RecordedEvent[]): Promise<void>;
}
