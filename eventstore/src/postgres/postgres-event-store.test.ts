import { randomBytes, randomUUID } from 'node:crypto';
import { endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectEvents } from '../contract/event-collector';
import { describeEventStoreContract } from '../contract/event-store-contract';
import { testEvent } from '../contract/test-event';
import { type EventStore, type NewEvent, WrongExpectedRevisionError } from '../port';
import { readStoredEvents } from './audit-read';
import { createPostgresEventStore } from './postgres-event-store';
import { migrateEventStore } from './schema';

/** What an attempt came to: its result, or what it failed with. */
const outcomeOf = (attempt: Promise<unknown>): Promise<unknown> =>
  attempt.then(
    (result) => result,
    (failure: unknown) => failure,
  );

const openDatabase = async (label: string) => {
  const database = await createTestDatabase(label);
  const pool = new pg.Pool({ connectionString: database.url, max: 12 });
  await migrateEventStore(pool);
  return { database, pool };
};

describeEventStoreContract('PostgreSQL', async () => {
  const { database, pool } = await openDatabase('eventstore_contract');
  return {
    openStore: async (upcasters) => createPostgresEventStore({ pool, upcasters, retryDelayMs: 50 }),
    readStored: (streamId) => readStoredEvents(pool, streamId),
    dispose: async () => {
      await endPool(pool);
      await database.drop();
    },
  };
});

describe('PostgreSQL event store', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let slowWriter: pg.Client;

  beforeAll(async () => {
    ({ database, pool } = await openDatabase('eventstore_pg'));
    store = createPostgresEventStore({ pool });
    slowWriter = new pg.Client({ connectionString: database.url });
    await slowWriter.connect();
  });

  afterAll(async () => {
    await slowWriter?.end();
    await store?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  /** Lets the appends started meanwhile reach the slow append's uncommitted revision, then commits it. */
  const commitSlowAppendSoon = async (): Promise<void> => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await slowWriter.query('commit');
  };

  /** Inserts the event the way an append does, in a transaction the test keeps open. */
  const beginSlowAppend = async (streamId: string, revision: number, event: NewEvent) => {
    await slowWriter.query('begin');
    const { rows } = await slowWriter.query<{ transaction_id: string; global_position: string }>(
      `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
       values ($1, $2, $3, $4, $5, $6) returning transaction_id, global_position`,
      [
        streamId,
        revision,
        event.metadata.event_id,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      ],
    );
    const row = rows[0]!;
    return { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) };
  };

  it('migrates idempotently, also when several processes start at once', async () => {
    await Promise.all([migrateEventStore(pool), migrateEventStore(pool), migrateEventStore(pool)]);
    const { rows } = await pool.query<{ column_name: string; data_type: string; is_nullable: string }>(
      `select column_name, data_type, is_nullable from information_schema.columns where table_name = 'events'
       order by ordinal_position`,
    );
    expect(rows.map((row) => `${row.column_name} ${row.data_type}${row.is_nullable === 'YES' ? ' null' : ''}`)).toEqual(
      [
        'global_position bigint',
        'stream_id text',
        'stream_revision integer',
        'event_id uuid',
        'event_type text',
        'data jsonb null',
        'metadata jsonb null',
        'transaction_id xid8',
        'stored_data text null',
        'stored_metadata text null',
        'prev bytea null',
        'leaf_hash bytea null',
      ],
    );
  });

  it('never lets a subscriber pass a transaction that began earlier and commits later', async () => {
    const prefix = `late${randomBytes(4).toString('hex')}-`;
    const head = await store.headPosition();
    const collector = collectEvents(store, head);
    const slowEvent = testEvent('TriggerEvaluated', { slow: true });
    const fastEvent = testEvent('TriggerEvaluated', { fast: true });
    try {
      const slowPosition = await beginSlowAppend(`${prefix}slow`, 0, slowEvent);
      const fast = await store.append(`${prefix}fast`, [fastEvent], 'no_stream');
      // The fast append took its transaction id and its global position after the slow one, and committed first.
      expect(fast.position.commit).toBeGreaterThan(slowPosition.commit);
      expect(fast.position.prepare).toBeGreaterThan(slowPosition.prepare);
      expect(await store.readStream(`${prefix}fast`)).toHaveLength(1);

      // A reader ordered by global position alone would now hand out the fast event and later skip the slow one.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(collector.idsOf(prefix)).toEqual([]);
      expect((await store.readAll(head, 100)).filter((event) => event.streamId.startsWith(prefix))).toEqual([]);

      await slowWriter.query('commit');
      const expected = [slowEvent.metadata.event_id, fastEvent.metadata.event_id];
      await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expected), { timeout: 10_000, interval: 20 });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(collector.idsOf(prefix)).toEqual(expected);
    } finally {
      await slowWriter.query('rollback').catch(() => undefined);
      await collector.stop();
    }
  });

  it('refuses an insert into events that is not its transaction’s first write, which readers could pass', async () => {
    const insert = (stream: string) =>
      slowWriter.query(
        `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
         values ($1, 0, $2, 'FarmRegistered', '{}', '{}')`,
        [stream, randomUUID()],
      );
    const prefix = `first${randomBytes(4).toString('hex')}-`;
    try {
      await slowWriter.query('begin');
      await slowWriter.query('select pg_current_xact_id()');
      await expect(insert(`${prefix}late`)).rejects.toThrow(/must be its transaction's first write/);
      await slowWriter.query('rollback');
      // A savepoint rolled back gives back the lock it took; the transaction's id stays.
      await slowWriter.query('begin');
      await slowWriter.query('savepoint attempt');
      await insert(`${prefix}undone`);
      await slowWriter.query('rollback to savepoint attempt');
      await expect(insert(`${prefix}after`)).rejects.toThrow(/must be its transaction's first write/);
      await slowWriter.query('rollback');
      // Two appends in one transaction that started with the first are fine.
      await slowWriter.query('begin');
      await insert(`${prefix}one`);
      await insert(`${prefix}two`);
      await slowWriter.query('commit');
      expect(await store.readStream(`${prefix}two`)).toHaveLength(1);
    } finally {
      await slowWriter.query('rollback').catch(() => undefined);
    }
  });

  it('turns a revision lost on the unique index into WrongExpectedRevisionError', async () => {
    const stream = `lost${randomBytes(4).toString('hex')}`;
    await beginSlowAppend(stream, 0, testEvent('PolicyIssued', { by: 'other writer' }));
    // Reads the stream as empty and then waits on the other writer's uncommitted revision 0. Its failure is
    // caught right away: on a busy machine it can come before the reply to our commit.
    const outcome = outcomeOf(store.append(stream, [testEvent('PolicyIssued', { by: 'us' })], 'no_stream'));
    await commitSlowAppendSoon();
    const error = await outcome;
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: stream, expected: 'no_stream', actual: 0 });
  });

  it('runs appends made together in one transaction, one append per stream, in the order they came', async () => {
    const prefix = `group${randomBytes(4).toString('hex')}-`;
    const [a, b] = [`${prefix}a`, `${prefix}b`];
    const [first, other, second] = await Promise.all([
      store.append(a, [testEvent('PolicyIssued', {})], 'no_stream'),
      store.append(b, [testEvent('PolicyIssued', {})], 'no_stream'),
      store.append(a, [testEvent('TriggerEvaluated', {})], 0),
    ]);
    expect(other!.position.commit).toBe(first!.position.commit);
    expect(other!.position.prepare).toBeGreaterThan(first!.position.prepare);
    // The second append to `a` waited for the first to commit, in a transaction of its own.
    expect(second!.position.commit).toBeGreaterThan(first!.position.commit);
    expect(second!.nextExpectedRevision).toBe(1);
    expect((await store.readStream(a)).map((event) => event.type)).toEqual(['PolicyIssued', 'TriggerEvaluated']);
  });

  it('answers each append of a shared statement on its own when the statement fails as a whole', async () => {
    const prefix = `alone${randomBytes(4).toString('hex')}-`;
    const raced = `${prefix}raced`;
    await beginSlowAppend(raced, 0, testEvent('PolicyIssued', { by: 'other writer' }));
    const used = testEvent('PolicyIssued', { id: 'taken' });
    await store.append(`${prefix}used`, [used], 'no_stream');
    // One statement for all five: it waits on the other writer's uncommitted revision 0 of `raced`.
    const outcomes = Promise.all(
      [
        store.append(`${prefix}first`, [testEvent('PolicyIssued', {})], 'no_stream'),
        store.append(raced, [testEvent('PolicyIssued', { by: 'us' })], 'no_stream'),
        store.append(`${prefix}fine`, [testEvent('PolicyIssued', {})], 'no_stream'),
        store.append(`${prefix}duplicate`, [used], 'no_stream'),
        store.append(`${prefix}also-fine`, [testEvent('PolicyIssued', {})], 'no_stream'),
      ].map(outcomeOf),
    );
    await commitSlowAppendSoon();
    const [first, lost, fine, duplicate, alsoFine] = await outcomes;
    expect(first).toMatchObject({ nextExpectedRevision: 0 });
    expect(lost).toBeInstanceOf(WrongExpectedRevisionError);
    expect(lost).toMatchObject({ streamId: raced, expected: 'no_stream', actual: 0 });
    expect(fine).toMatchObject({ nextExpectedRevision: 0 });
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'events_event_id_key' });
    expect(alsoFine).toMatchObject({ nextExpectedRevision: 0 });
    expect(await store.readStream(`${prefix}duplicate`)).toEqual([]);
    expect((await store.readStream(raced)).map((event) => event.data)).toEqual([{ by: 'other writer' }]);
  });

  it('fails a multi-stream append that lost a race on one stream, naming it, and writes none', async () => {
    const prefix = `multirace${randomBytes(4).toString('hex')}-`;
    const [free, raced] = [`${prefix}free`, `${prefix}raced`];
    await beginSlowAppend(raced, 0, testEvent('PolicyIssued', { by: 'other writer' }));
    const outcome = outcomeOf(
      store.appendToStreams([
        { streamId: free, events: [testEvent('FarmRegistered', {})], expected: 'no_stream' },
        { streamId: raced, events: [testEvent('PolicyIssued', { by: 'us' })], expected: 'no_stream' },
      ]),
    );
    await commitSlowAppendSoon();
    const error = await outcome;
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: raced, expected: 'no_stream', actual: 0 });
    expect(await store.readStream(free)).toEqual([]);
  });

  it('refuses a multi-stream append with no streams, a stream twice or a stream without events', async () => {
    const stream = `refused${randomBytes(4).toString('hex')}`;
    const append = { streamId: stream, events: [testEvent('FarmRegistered', {})], expected: 'any' as const };
    await expect(store.appendToStreams([])).rejects.toThrow(RangeError);
    await expect(store.appendToStreams([append, append])).rejects.toThrow(/appears twice/);
    await expect(store.appendToStreams([append, { ...append, streamId: `${stream}-2`, events: [] }])).rejects.toThrow(
      /no events/,
    );
    expect(await store.readStream(stream)).toEqual([]);
  });

  it('retries an `any` append that lost the race on the new head', async () => {
    const stream = `any${randomBytes(4).toString('hex')}`;
    await beginSlowAppend(stream, 0, testEvent('PolicyIssued', { by: 'other writer' }));
    const append = store.append(stream, [testEvent('PolicyIssued', { by: 'us' })], 'any');
    await commitSlowAppendSoon();
    expect((await append).nextExpectedRevision).toBe(1);
    expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ by: 'other writer' }, { by: 'us' }]);
  });
});
