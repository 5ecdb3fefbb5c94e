import { farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { migrateReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, type Logger, loadConfig } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import type pg from 'pg';

export interface ProjectorTestDatabase {
  readonly url: string;
  readonly pool: pg.Pool;
  readonly db: Kysely<ReadModels>;
  readonly eventStore: EventStore;
  /** The same log as the service reads it: farmers' personal fields opened with the sandbox keys. */
  readonly openedEventStore: EventStore;
  readonly logger: Logger;
  close(): Promise<void>;
}

/** A database of the test file's own with the event store and read models migrated. */
export const openProjectorTestDatabase = async (label: string): Promise<ProjectorTestDatabase> => {
  const database = await createTestDatabase(label);
  const logger = createLogger({ level: 'silent' });
  const pool = createPool(database.url, logger, { max: 12 });
  await migrateEventStore(pool);
  const db = createKysely<ReadModels>(pool);
  await migrateReadModels(db);
  // Short pauses keep the tests quick; production defaults are longer.
  const eventStore = createPostgresEventStore({ pool, pollIntervalMs: 50, retryDelayMs: 50 });
  return {
    url: database.url,
    pool,
    db,
    eventStore,
    openedEventStore: withSealedPersonalData(eventStore, farmerKeysIn(db, loadConfig({}).personalDataKeys)),
    logger,
    close: async () => {
      await eventStore.close();
      await db.destroy();
      await database.drop();
    },
  };
};
