import type { FarmerEvent } from '@cropcover/contracts';
import { createEventStore, type EventStore, migrateEventStore, type NewEvent } from '@cropcover/eventstore';
import { listenToFarmerKeyErasures, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedFarmerKeys } from './farmer-key-cache';
import { type FarmerKeys, farmerKeysIn } from './farmer-keys';
import { withSealedPersonalData } from './sealing-event-store';

// Two processes over one database, each with its own pool, key cache and erasure listener: process A has
// the farmer's key cached, process B erases the farmer, and from the moment A hears of it A neither opens
// the farmer's data nor seals anything new with the key it held.

const logger = createLogger({ level: 'silent' });
const kek = { id: 'k1', key: Buffer.alloc(32, 7) };
let database: TestDatabase;

interface Process {
  readonly pool: ReturnType<typeof createPool>;
  readonly db: Kysely<ReadModels>;
  readonly store: EventStore;
  readonly keys: FarmerKeys;
  /** How many key lookups reached `farmer_keys`. */
  lookups: number;
  /** Resolves when this process has heard the farmer's erasure. */
  heard(farmerId: string): Promise<void>;
  /** Resolves once the erasure listener is up (keys are cached only from then on). */
  readonly listening: Promise<void>;
}

const startProcess = (): Process => {
  const pool = createPool(database.url, logger);
  const db = createKysely<ReadModels>(pool);
  const table = farmerKeysIn(db, [kek]);
  const heardOf = new Map<string, () => void>();
  const heard = new Map<string, Promise<void>>();
  const waitFor = (farmerId: string) => {
    if (!heard.has(farmerId)) heard.set(farmerId, new Promise((resolve) => heardOf.set(farmerId, resolve)));
    return heard.get(farmerId)!;
  };
  let listeningNow: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => {
    listeningNow = resolve;
  });
  const process: Process = {
    pool,
    db,
    lookups: 0,
    heard: waitFor,
    listening,
    keys: undefined as never,
    store: undefined as never,
  };
  const counted: FarmerKeys = {
    ...table,
    keyToSeal: (farmerId) => {
      process.lookups += 1;
      return table.keyToSeal(farmerId);
    },
    keysToOpen: (farmerIds) => {
      process.lookups += 1;
      return table.keysToOpen(farmerIds);
    },
  };
  const keys = cachedFarmerKeys(counted, (watcher) =>
    listenToFarmerKeyErasures(pool, logger, {
      onErased: (farmerId) => {
        watcher.onErased(farmerId);
        void waitFor(farmerId);
        heardOf.get(farmerId)!();
      },
      onListening: (now) => {
        watcher.onListening(now);
        if (now) listeningNow();
      },
    }),
  );
  const store = withSealedPersonalData(createEventStore({ eventstoreUrl: undefined, pool }), keys);
  return Object.assign(process, { keys, store });
};

const registered = (farmerId: string, firstName: string): NewEvent => {
  const event: FarmerEvent = {
    type: 'FarmerRegistered',
    data: {
      farmer_id: farmerId,
      subject: `sub-${farmerId}`,
      platform_farmer_id: `PF-${farmerId}`,
      first_name: firstName,
      last_name: 'Otieno',
      phone_number: '+254712345678',
      language: 'sw',
      upload_channel: null,
      whatsapp_number: null,
      data_consent_given: true,
      onboarding_status: 'completed',
      source: 'profile',
      registered_at: '2026-03-01T10:00:00.000Z',
    },
  };
  return {
    ...event,
    metadata: {
      event_id: crypto.randomUUID(),
      occurred_at: '2026-03-01T10:00:00.000Z',
      actor: 'u1',
      organization_id: null,
      correlation_id: 'c',
      causation_id: null,
      schema_version: 1,
      platform_version: 'test',
    },
  };
};

let a: Process;
let b: Process;

beforeAll(async () => {
  database = await createTestDatabase('farmer_key_cache');
  const setup = createPool(database.url, logger);
  await migrateEventStore(setup);
  await migrateReadModels(createKysely<ReadModels>(setup));
  await setup.end();
  a = startProcess();
  b = startProcess();
  await Promise.all([a.listening, b.listening]);
}, 60_000);

afterAll(async () => {
  for (const process of [a, b]) {
    await process?.store.close();
    await process?.db.destroy();
  }
  await database?.drop();
});

describe('the per-process cache of farmers’ keys', () => {
  it('seals and opens with a cached key without asking the table again', async () => {
    await a.store.append('farmer-c1', [registered('c1', 'Zqcached')], 'no_stream');
    const before = a.lookups;
    const [read] = await a.store.readStream('farmer-c1');
    await a.store.append('farmer-c1b', [registered('c1', 'Zqcached')], 'no_stream');
    expect(read!.data).toMatchObject({ first_name: 'Zqcached' });
    expect(a.lookups).toBe(before);
  });

  it('lets no process use a key it cached once another process erased the farmer', async () => {
    await a.store.append('farmer-c2', [registered('c2', 'Zqerasedmarker')], 'no_stream');
    const [open] = await a.store.readStream('farmer-c2');
    expect(open!.data).toMatchObject({ first_name: 'Zqerasedmarker' });

    await b.keys.erase('c2', new Date());
    await a.heard('c2');

    const [read] = await a.store.readStream('farmer-c2');
    expect(read!.data).toMatchObject({ first_name: '[erased]', phone_number: null });
    await a.store.append('farmer-c2b', [registered('c2', 'Zqafter')], 'no_stream');
    const stored = await a.pool.query<{ text: string }>(
      "select stored_data as text from events where stream_id = 'farmer-c2b'",
    );
    expect(stored.rows[0]!.text).not.toMatch(/sealed:v[12]:c2:/);
    expect(stored.rows[0]!.text).toContain('"first_name":"[erased]"');
  });
});
