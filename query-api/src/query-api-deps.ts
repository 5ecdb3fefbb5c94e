import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Clock } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { ReadModelConsistency } from './consistency-token';

export interface QueryApiDeps {
  readonly db: Kysely<ReadModels>;
  readonly consistency: ReadModelConsistency;
  readonly readYourWritesTimeoutMs: number;
  /** Only the audit endpoint reads the log: the log is the audit record, and a copy of it in the read
   *  models would be a second truth that could disagree. */
  readonly eventStore: EventStore;
  /** "Today" of the live trigger status. */
  readonly clock: Clock;
}
