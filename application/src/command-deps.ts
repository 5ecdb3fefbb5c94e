import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** What the use cases need, whoever runs them (a route or a worker): the log they append to and the
 *  read store they consult (index readings for evaluation and pricing). */
export interface CommandDeps {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
}
