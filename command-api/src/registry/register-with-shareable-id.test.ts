import type { CommandContext } from '@cropcover/application';
import { farmerAggregate, farmerStream, registerFarmer, shareableIdStream } from '@cropcover/domain';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { createLogger, createPool, endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWithShareableId } from './register-with-shareable-id';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const context: CommandContext = {
  principal: { sub: 'user-1', organizationId: null, roles: [] },
  actor: { subject: 'user-1', organizationId: null, isAdmin: false, roles: [] },
  requestId: 'request-1',
  correlationId: 'correlation-1',
  now: NOW,
};

const profile = {
  first_name: 'Wanjiku',
  last_name: 'Kamau',
  phone_number: null,
  language: null,
  upload_channel: null,
  whatsapp_number: null,
  data_consent_given: false,
};

const registration = (farmerId: string) => (platformFarmerId: string) =>
  registerFarmer(
    { farmerId, subject: 'user-1', platformFarmerId, profile, source: 'profile', now: NOW },
    farmerAggregate.initial,
  );

/** Draws the given codes in turn, as the random draw would. */
const drawing = (...codes: string[]) => {
  let next = 0;
  return () => codes[next++]!;
};

describe('registering a stream with its shareable id', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let eventStore: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('register_shareable_id');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    await migrateEventStore(pool);
    eventStore = createPostgresEventStore({ pool });
  });
  afterAll(async () => {
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const streamsNamed = async (...streamIds: string[]) =>
    (await pool.query<{ stream_id: string }>('select stream_id from events where stream_id = any($1)', [streamIds]))
      .rows;

  it('claims the id and starts the stream in one write: consecutive in the log, the claim first', async () => {
    const stream = farmerStream('farmer-a');
    const outcome = await registerWithShareableId(
      eventStore,
      'PF',
      stream,
      farmerAggregate,
      registration('farmer-a'),
      context,
      drawing('PF-AAAAAAAA'),
    );
    expect(outcome.state).toMatchObject({ status: 'registered', platformFarmerId: 'PF-AAAAAAAA' });
    const { rows } = await pool.query<{ stream_id: string; transaction_id: string; global_position: string }>(
      `select stream_id, transaction_id::text, global_position::text from events
        where stream_id in ($1, $2) order by global_position`,
      [shareableIdStream('PF-AAAAAAAA'), stream],
    );
    expect(rows.map((row) => row.stream_id)).toEqual([shareableIdStream('PF-AAAAAAAA'), stream]);
    expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(1);
    expect(outcome.position).toEqual((await eventStore.readStream(stream))[0]!.position);
  });

  it('draws again when the code is taken, and the taken code keeps its first owner', async () => {
    const stream = farmerStream('farmer-b');
    const outcome = await registerWithShareableId(
      eventStore,
      'PF',
      stream,
      farmerAggregate,
      registration('farmer-b'),
      context,
      drawing('PF-AAAAAAAA', 'PF-BBBBBBBB'),
    );
    expect(outcome.state).toMatchObject({ platformFarmerId: 'PF-BBBBBBBB' });
    const claims = await eventStore.readStream(shareableIdStream('PF-AAAAAAAA'));
    expect(claims.map((event) => event.data)).toEqual([{ code: 'PF-AAAAAAAA', claimed_by: farmerStream('farmer-a') }]);
  });

  it('appends nothing and burns no code when the stream exists: the outcome is the stream as it is', async () => {
    const outcome = await registerWithShareableId(
      eventStore,
      'PF',
      farmerStream('farmer-a'),
      farmerAggregate,
      registration('farmer-a'),
      context,
      drawing('PF-CCCCCCCC'),
    );
    expect(outcome.appended).toBeUndefined();
    expect(outcome.state).toMatchObject({ platformFarmerId: 'PF-AAAAAAAA' });
    expect(await streamsNamed(shareableIdStream('PF-CCCCCCCC'))).toEqual([]);
  });

  it('gives up with the conflict after five taken codes', async () => {
    await expect(
      registerWithShareableId(
        eventStore,
        'PF',
        farmerStream('farmer-c'),
        farmerAggregate,
        registration('farmer-c'),
        context,
        () => 'PF-AAAAAAAA',
      ),
    ).rejects.toMatchObject({ name: 'WrongExpectedRevisionError', streamId: shareableIdStream('PF-AAAAAAAA') });
    expect(await streamsNamed(farmerStream('farmer-c'))).toEqual([]);
  });
});
