import { createEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { migrateReadModels } from '@cropcover/read-store';
import { createKysely, createPool, type Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

export interface ProjectorConnections {
  readonly db: Kysely<ReadModels>;
  readonly eventStore: EventStore;
  close(): Promise<void>;
}

/** The read-model database and the event store, both migrated, as the projector's commands use them. */
export const connectProjector = async (
  databaseUrl: string,
  eventStoreUrl: string | undefined,
  logger: Logger,
): Promise<ProjectorConnections> => {
  const pool = createPool(databaseUrl, logger, { applicationName: 'cropcover-projector' });
  // Without EVENTSTORE_URL the log is the `events` table of the same database.
  if (!eventStoreUrl) await migrateEventStore(pool);
  const eventStore = createEventStore({ eventstoreUrl: eventStoreUrl, pool });
  const db = createKysely<ReadModels>(pool);
  await migrateReadModels(db);
  return {
    db,
    eventStore,
    close: async () => {
      await eventStore.close();
      await db.destroy();
    },
  };
};
