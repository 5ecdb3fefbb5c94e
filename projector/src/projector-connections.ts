import { cachedFarmerKeys, farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import { createEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { listenToFarmerKeyErasures, migrateReadModels } from '@cropcover/read-store';
import { createKysely, createPool, type Logger, type PersonalDataKey } from '@cropcover/runtime';
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
  personalDataKeys: readonly PersonalDataKey[],
): Promise<ProjectorConnections> => {
  const pool = createPool(databaseUrl, logger, { applicationName: 'cropcover-projector' });
  // Without EVENTSTORE_URL the log is the `events` table of the same database.
  if (!eventStoreUrl) await migrateEventStore(pool);
  const log = createEventStore({ eventstoreUrl: eventStoreUrl, pool });
  const db = createKysely<ReadModels>(pool);
  await migrateReadModels(db);
  // A rebuild reads farmers' personal data as every reader does: opened while the key exists.
  const keys = cachedFarmerKeys(farmerKeysIn(db, personalDataKeys), (watcher) =>
    listenToFarmerKeyErasures(pool, logger, watcher),
  );
  const eventStore = withSealedPersonalData(log, keys);
  return {
    db,
    eventStore,
    close: async () => {
      await eventStore.close();
      await db.destroy();
    },
  };
};
