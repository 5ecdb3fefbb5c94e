import type { EventStore, StoredLogEvent } from '@cropcover/eventstore';
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
  /** The log's stored bytes, which the audit tree hashed (SPEC §7 Audit); absent where the log has no
   *  audit chain (KurrentDB for now), and proofs are then answered as not yet available. */
  readonly storedLog?: StoredLogReader;
  /** "Today" of the live trigger status. */
  readonly clock: Clock;
}

export interface StoredLogReader {
  readStoredEvents(stream: string): Promise<StoredLogEvent[]>;
  readStoredEventsAt(places: readonly { stream: string; revision: number }[]): Promise<StoredLogEvent[]>;
}
