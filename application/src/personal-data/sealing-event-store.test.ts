import { createCipheriv, type KeyObject, randomBytes } from 'node:crypto';
import type { FarmerEvent } from '@cropcover/contracts';
import { createEventStore, type EventStore, migrateEventStore, type NewEvent } from '@cropcover/eventstore';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FarmerKeys, farmerKeysIn } from './farmer-keys';
import { withSealedPersonalData } from './sealing-event-store';

// The sealing store over a real log: what reaches the events table, what readers get back, and what they
// get once the farmer's key is destroyed.

let database: TestDatabase;
let pool: ReturnType<typeof createPool>;
let db: Kysely<ReadModels>;
let log: EventStore;
let keys: FarmerKeys;
let sealed: EventStore;
const kek = { id: 'k1', key: Buffer.alloc(32, 7) };

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

/** A value as the store sealed it before v2: alone, with the farmer and its path as additional data. */
const sealedV1 = (value: string, farmerId: string, path: string, key: KeyObject): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${farmerId}\u0000${path}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `sealed:v1:${farmerId}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
};

const storedText = async (streamId: string): Promise<string> =>
  (await pool.query<{ text: string }>('select stored_data as text from events where stream_id = $1', [streamId])).rows
    .map((row: { text: string }) => row.text)
    .join('\n');

beforeAll(async () => {
  database = await createTestDatabase('sealing_store');
  pool = createPool(database.url, createLogger({ level: 'silent' }));
  db = createKysely<ReadModels>(pool);
  await migrateEventStore(pool);
  await migrateReadModels(db);
  log = createEventStore({ eventstoreUrl: undefined, pool });
  keys = farmerKeysIn(db, [kek]);
  sealed = withSealedPersonalData(log, keys);
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('the sealing event store', () => {
  it('stores personal fields sealed and reads them back open', async () => {
    await sealed.append('farmer-f1', [registered('f1', 'Zqmarker')], 'no_stream');
    const text = await storedText('farmer-f1');
    expect(text).not.toContain('Zqmarker');
    expect(text).not.toContain('+254712345678');
    expect(text).toContain('"language":"sw"');
    const [read] = await sealed.readStream('farmer-f1');
    expect(read!.data).toMatchObject({ first_name: 'Zqmarker', phone_number: '+254712345678', whatsapp_number: null });
    const [raw] = await log.readStream('farmer-f1');
    expect(raw!.data).toMatchObject({
      first_name: expect.stringMatching(/^sealed:v2:f1:/),
      last_name: expect.stringMatching(/^sealed:v2:f1:/),
      phone_number: expect.stringMatching(/^sealed:v2:f1:/),
      whatsapp_number: null,
    });
  });

  it('still opens values sealed one by one (v1), as logs written before v2 hold them', async () => {
    const key = (await keys.keyToSeal('f4'))!;
    const event = registered('f4', 'Zqolder');
    const data = event.data as Record<string, string>;
    const older = {
      ...data,
      first_name: sealedV1(data.first_name!, 'f4', 'first_name', key),
      last_name: sealedV1(data.last_name!, 'f4', 'last_name', key),
      phone_number: sealedV1(data.phone_number!, 'f4', 'phone_number', key),
    };
    await log.append('farmer-f4', [{ ...event, data: older }], 'no_stream');
    const [read] = await sealed.readStream('farmer-f4');
    expect(read!.data).toMatchObject({ first_name: 'Zqolder', last_name: 'Otieno', phone_number: '+254712345678' });
  });

  it('opens nothing once sealed values are swapped between fields', async () => {
    const [raw] = await log.readStream('farmer-f1');
    const data = raw!.data as Record<string, string>;
    const { openEvents } = await import('./sealing-event-store');
    await expect(
      openEvents([{ ...raw!, data: { ...data, first_name: data.last_name!, last_name: data.first_name! } }], keys),
    ).rejects.toThrow();
  });

  it('reads an erased farmer’s fields as erased, and seals nothing new for them', async () => {
    await sealed.append('farmer-f2', [registered('f2', 'Zqother')], 'no_stream');
    await keys.erase('f2', new Date());
    const [read] = await sealed.readStream('farmer-f2');
    expect(read!.data).toMatchObject({ first_name: '[erased]', last_name: '[erased]', phone_number: null });
    const all = await sealed.readAll('start', 100);
    expect(all.find((event) => event.streamId === 'farmer-f1')!.data).toMatchObject({ first_name: 'Zqmarker' });
    expect(all.find((event) => event.streamId === 'farmer-f2')!.data).toMatchObject({ first_name: '[erased]' });
    await sealed.append('farmer-f2b', [registered('f2', 'Zqagain')], 'no_stream');
    expect(await storedText('farmer-f2b')).not.toContain('Zqagain');
  });

  it('opens nothing with another farmer’s key', async () => {
    const [raw] = await log.readStream('farmer-f1');
    const moved = { ...raw!, streamId: 'farmer-f3', data: { ...(raw!.data as object), farmer_id: 'f3' } };
    await sealed.append('farmer-f3', [registered('f3', 'x')], 'no_stream');
    const opened = String((raw!.data as { first_name: string }).first_name).replace('sealed:v2:f1:', 'sealed:v2:f3:');
    await expect(
      (async () => {
        const { openEvents } = await import('./sealing-event-store');
        return openEvents([{ ...moved, data: { ...moved.data, first_name: opened } }], keys);
      })(),
    ).rejects.toThrow();
  });
});
