import { randomBytes } from 'node:crypto';
import { endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectEvents } from '../contract/event-collector';
import { testEvent } from '../contract/test-event';
import { formatPosition } from '../position';
import { APPENDED_CHANNEL } from './append';
import { createPostgresEventStore } from './postgres-event-store';
import { migrateEventStore } from './schema';

// The subscribers here poll once a minute, so an event delivered within seconds was found because of the
// append's notification. $all hides an event while an older append still runs, which other test files'
// appends may be: the tests wait for the delivery instead of expecting it at the notify.
const MINUTE_POLL_MS = 60_000;
const DELIVERY = { timeout: 5_000, interval: 5 };

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL append notifications', () => {
  let database: TestDatabase;
  let other: TestDatabase;
  let holder: pg.Client;
  let probe: pg.Client;
  const notified: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('eventstore_notify');
    other = await createTestDatabase('eventstore_bystander');
    const pool = new pg.Pool({ connectionString: database.url });
    await migrateEventStore(pool);
    await endPool(pool);
    holder = new pg.Client({ connectionString: database.url });
    probe = new pg.Client({ connectionString: database.url });
    await Promise.all([holder.connect(), probe.connect()]);
    probe.on('notification', (message) => notified.push(message.payload ?? ''));
    await probe.query(`listen ${APPENDED_CHANNEL}`);
  });

  afterAll(async () => {
    await holder?.end();
    await probe?.end();
    await database?.drop();
    await other?.drop();
  });

  /** A store with a minute-long poll and a subscriber from its head, once the store's listener listens: an
   *  append notified earlier is only found by the read after LISTEN, which older transactions may blind. */
  const openSubscriber = async () => {
    const applicationName = `notify_${randomBytes(4).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: database.url, application_name: applicationName, max: 4 });
    const store = createPostgresEventStore({ pool, pollIntervalMs: MINUTE_POLL_MS });
    const collector = collectEvents(store, await store.headPosition());
    await vi.waitFor(
      async () => {
        const { rows } = await pool.query<{ listening: boolean }>(
          `select exists (select from pg_stat_activity where application_name = $1 and state = 'idle' and query = $2)
             as listening`,
          [applicationName, `listen ${APPENDED_CHANNEL}`],
        );
        expect(rows[0]?.listening).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    const close = async () => {
      await collector.stop();
      await store.close();
      await endPool(pool);
    };
    return { store, collector, close };
  };

  it('wakes an idle subscriber with the append notification rather than its poll', async () => {
    const { store, collector, close } = await openSubscriber();
    const prefix = `wake${randomBytes(4).toString('hex')}-`;
    try {
      // Let the subscriber find nothing and fall asleep for its poll interval.
      await delay(300);
      const event = testEvent('FarmRegistered', {});
      await store.append(`${prefix}1`, [event], 'no_stream');
      await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual([event.metadata.event_id]), DELIVERY);
    } finally {
      await close();
    }
  });

  it('delivers a notified append soon after the older append that hid it ends', async () => {
    const { store, collector, close } = await openSubscriber();
    const prefix = `held${randomBytes(4).toString('hex')}-`;
    try {
      // An append that took its transaction id first and has not committed: $all shows nothing newer until
      // it ends, or a checkpoint could pass it.
      await holder.query('begin');
      const older = testEvent('FarmRegistered', { older: true });
      await holder.query(
        `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
         values ($1, 0, $2, $3, $4, $5)`,
        [
          `${prefix}older`,
          older.metadata.event_id,
          older.type,
          JSON.stringify(older.data),
          JSON.stringify(older.metadata),
        ],
      );
      const event = testEvent('FarmRegistered', {});
      const appended = await store.append(`${prefix}1`, [event], 'no_stream');
      await vi.waitFor(() => expect(notified).toContain(formatPosition(appended.position)), DELIVERY);
      await delay(100);
      expect(collector.idsOf(prefix)).toEqual([]);

      // Ending it notifies nobody: the subscriber finds the event because it knows one was notified.
      await holder.query('rollback');
      await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual([event.metadata.event_id]), DELIVERY);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await close();
    }
  });

  // Issue 11, fault 2: the horizon used to be the server's snapshot xmin, so any transaction anywhere on
  // the server — another database's, a long import, a migration — stalled every reader of the log.
  it.each([
    ['in this database', () => database.url],
    ['in another database', () => other.url],
  ])('is not held back by a transaction that appends nothing, %s', async (_where, urlOf) => {
    const { store, collector, close } = await openSubscriber();
    const prefix = `free${randomBytes(4).toString('hex')}-`;
    const bystander = new pg.Client({ connectionString: urlOf() });
    await bystander.connect();
    try {
      await bystander.query('begin');
      await bystander.query('select pg_current_xact_id()');
      const event = testEvent('FarmRegistered', {});
      const appended = await store.append(`${prefix}1`, [event], 'no_stream');
      await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual([event.metadata.event_id]), DELIVERY);
      expect(await store.headPosition()).toEqual(appended.position);
    } finally {
      await bystander.query('rollback').catch(() => undefined);
      await bystander.end();
      await close();
    }
  });
});
