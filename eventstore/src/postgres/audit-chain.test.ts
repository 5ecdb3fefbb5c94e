import { endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { canonicalJson, eventLeafHash, GENESIS_PREV, leafHash, leafInputOf } from '@cropcover/verifiable-log';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEvent } from '../contract/test-event';
import type { EventStore } from '../port';
import { UnstorableEventTextError } from '../stored-text';
import { readLeavesInCommitOrder, readStoredEvents } from './audit-read';
import { createPostgresEventStore } from './postgres-event-store';
import { migrateEventStore } from './schema';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('the audit chain of the PostgreSQL event store', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('eventstore_audit_chain');
    pool = new pg.Pool({ connectionString: database.url, max: 8 });
    await migrateEventStore(pool);
    await migrateEventStore(pool); // twice: a restart runs it again
    store = createPostgresEventStore({ pool });
  });

  afterAll(async () => {
    await store?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  /** Every event's leaf recomputed from its stored texts, and each `prev` the previous revision's leaf. */
  const expectChained = async (stream: string, count: number) => {
    const events = await readStoredEvents(pool, stream);
    expect(events.map((event) => event.revision)).toEqual([...Array(count).keys()]);
    let prev: Uint8Array = GENESIS_PREV;
    for (const event of events) {
      expect(hex(event.prev)).toBe(hex(prev));
      expect(hex(eventLeafHash(event))).toBe(hex(event.leafHash));
      prev = event.leafHash;
    }
    return events;
  };

  it('stores the canonical texts it hashed as the event, with no jsonb copy; events_json shows it as jsonb', async () => {
    const data = { z: 1, a: 'Dürre "trocken" \u0007', amount: '12.50', nested: { y: [1, 2.5], b: null } };
    const appended = testEvent('Policy"Issued', data);
    await store.append('policy-chain-1', [appended], 'no_stream');
    const [event] = await expectChained('policy-chain-1', 1);
    expect(event!.data).toBe(canonicalJson(data));
    const [read] = await store.readStream('policy-chain-1');
    expect(read!.data).toEqual(data);
    expect(read!.metadata).toEqual(appended.metadata);
    const { rows } = await pool.query(
      `select e.data, e.metadata, j.data as json_data, j.metadata as json_metadata
       from events e join events_json j using (global_position) where e.stream_id = 'policy-chain-1'`,
    );
    expect(rows).toEqual([{ data: null, metadata: null, json_data: data, json_metadata: appended.metadata }]);
  });

  it('refuses an event holding U+0000 or a lone surrogate, which no read model could store, and writes nothing', async () => {
    for (const data of [{ note: 'a\u0000b' }, { note: 'a\ud83d' }])
      await expect(store.append('policy-chain-9', [testEvent('Noted', data)], 'no_stream')).rejects.toThrow(
        UnstorableEventTextError,
      );
    expect(await store.readStream('policy-chain-9')).toEqual([]);
    const { rows } = await pool.query("select count(*)::int as count from events where stream_id = 'policy-chain-9'");
    expect(rows[0].count).toBe(0);
  });

  it('chains events of one append, of following appends and of a multi-stream append', async () => {
    await store.append(
      'policy-chain-2',
      [testEvent('A', { n: 0 }), testEvent('B', { n: 1 }), testEvent('C', { n: 2 })],
      'no_stream',
    );
    await store.append('policy-chain-2', [testEvent('D', { n: 3 })], 2);
    await store.appendToStreams([
      { streamId: 'policy-chain-2', events: [testEvent('E', { n: 4 }), testEvent('F', { n: 5 })], expected: 3 },
      { streamId: 'policy-chain-3', events: [testEvent('A', {})], expected: 'no_stream' },
    ]);
    await expectChained('policy-chain-2', 6);
    await expectChained('policy-chain-3', 1);
  });

  it('keeps each event its own texts when they hold the separators of the statement (U+001D, U+001E)', async () => {
    const data = (i: number) => ({ [`k\u001d${i}`]: `a\u001eb\u001d${i}`, i });
    await store.appendToStreams([
      { streamId: 'policy-chain-5', events: [testEvent('A', data(0)), testEvent('B', data(1))], expected: 'no_stream' },
      { streamId: 'policy-chain-6', events: [testEvent('A', data(2))], expected: 'no_stream' },
    ]);
    await Promise.all([3, 4].map((i) => store.append(`policy-chain-${i + 4}`, [testEvent('A', data(i))], 'any')));
    const stored = [
      ...(await expectChained('policy-chain-5', 2)),
      ...(await expectChained('policy-chain-6', 1)),
      ...(await expectChained('policy-chain-7', 1)),
      ...(await expectChained('policy-chain-8', 1)),
    ];
    expect(stored.map((event) => event.data)).toEqual([0, 1, 2, 3, 4].map((i) => canonicalJson(data(i))));
  });

  it('chains appends that race on one stream through group commit', async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, i) => store.append('policy-chain-4', [testEvent('Evaluated', { i })], 'any')),
    );
    await expectChained('policy-chain-4', 24);
  });

  it('reads every leaf in commit order, with the envelope it hashes', async () => {
    const leaves = await readLeavesInCommitOrder(pool, 'start', 1000);
    const { rows } = await pool.query<{ leaf_hash: Buffer }>(
      'select leaf_hash from events order by transaction_id, global_position',
    );
    expect(leaves.map((leaf) => hex(leaf.leafHash))).toEqual(rows.map((row) => row.leaf_hash.toString('hex')));
    expect(leaves.map((leaf) => hex(leafHash(leafInputOf(leaf.envelope))))).toEqual(
      leaves.map((leaf) => hex(leaf.leafHash)),
    );
    const after = await readLeavesInCommitOrder(pool, leaves[9]!.position, 1000);
    expect(after.map((leaf) => hex(leaf.leafHash))).toEqual(leaves.slice(10).map((leaf) => hex(leaf.leafHash)));
  });
});

describe('an event appended before the chain', () => {
  it('is read, and taken into the tree, as if its jsonb text had been stored, with zeros for prev', async () => {
    const database = await createTestDatabase('eventstore_audit_legacy');
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    const store = createPostgresEventStore({ pool });
    try {
      // The table as it was before the chain, with a row in it; then processes starting at once migrate it.
      await pool.query(`
        create table events (
          global_position bigint generated always as identity primary key,
          stream_id text not null, stream_revision int not null, event_id uuid not null, event_type text not null,
          data jsonb not null, metadata jsonb not null, transaction_id xid8 not null default pg_current_xact_id(),
          constraint events_event_id_key unique (event_id),
          constraint events_stream_revision_key unique (stream_id, stream_revision));
        insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
        values ('policy-old', 0, gen_random_uuid(), 'PolicyIssued', '{"b":1,"a":2}', '{"actor":"x"}')`);
      await Promise.all([migrateEventStore(pool), migrateEventStore(pool), migrateEventStore(pool)]);
      const [event] = await readStoredEvents(pool, 'policy-old');
      expect([event!.data, hex(event!.prev)]).toEqual(['{"a": 2, "b": 1}', hex(GENESIS_PREV)]);
      expect(hex(eventLeafHash(event!))).toBe(hex(event!.leafHash));
      const [leaf] = await readLeavesInCommitOrder(pool, 'start', 10);
      expect(hex(leaf!.leafHash)).toBe(hex(event!.leafHash));
      expect(hex(leafHash(leafInputOf(leaf!.envelope)))).toBe(hex(event!.leafHash));

      // The stream goes on with a chained event, its texts only; both read back as they were appended.
      const next = testEvent('PolicyAmended', { c: 3 });
      await store.append('policy-old', [next], 0);
      expect((await store.readStream('policy-old')).map((read) => [read.data, read.metadata])).toEqual([
        [{ a: 2, b: 1 }, { actor: 'x' }],
        [{ c: 3 }, next.metadata],
      ]);
      const { rows } = await pool.query(
        `select data is null as no_copy, (select data from events_json j where j.event_id = e.event_id) as json
         from events e where stream_id = 'policy-old' order by stream_revision`,
      );
      expect(rows).toEqual([
        { no_copy: false, json: { a: 2, b: 1 } },
        { no_copy: true, json: { c: 3 } },
      ]);
      await expect(
        pool.query(`insert into events (stream_id, stream_revision, event_id, event_type)
        values ('policy-old', 2, gen_random_uuid(), 'Empty')`),
      ).rejects.toThrow(/events_texts_present/);
    } finally {
      await store.close();
      await endPool(pool);
      await database.drop();
    }
  });
});
