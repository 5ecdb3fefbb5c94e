import { describe } from 'vitest';
import { describeEventStoreContract } from '../contract/event-store-contract';
import { createKurrentDbEventStore } from './kurrentdb-event-store';
import { isKurrentDbUrl } from './kurrentdb-url';

const configured = process.env.EVENTSTORE_URL;
const connectionString = configured && isKurrentDbUrl(configured) ? configured : undefined;

if (!connectionString)
  console.warn(
    'KurrentDB event store contract SKIPPED: EVENTSTORE_URL is not a kurrentdb:// or esdb:// URL, and this ' +
      'machine has no Docker engine to start a KurrentDB container. Set EVENTSTORE_URL to run it.',
  );

describe.skipIf(!connectionString)('KurrentDB event store', () => {
  describeEventStoreContract('KurrentDB', async () => {
    const auditReader = createKurrentDbEventStore({ connectionString: connectionString! });
    return {
      openStore: async (upcasters) =>
        createKurrentDbEventStore({ connectionString: connectionString!, upcasters, retryDelayMs: 50 }),
      readStored: (streamId) => auditReader.readStoredEvents(streamId),
      dispose: () => auditReader.close(),
    };
  });
});
