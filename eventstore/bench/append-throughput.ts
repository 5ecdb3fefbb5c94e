import { randomBytes } from 'node:crypto';
import { endPool } from '@cropcover/runtime';
import pg from 'pg';
import { type EventStore, migrateEventStore } from '../src/index';
import { createPostgresEventStore } from '../src/postgres/postgres-event-store';
import { type AppendOne, loadAverage, median, percentile, runWriters } from './workload';

// Appends/s of the PostgreSQL event store with 1 and 8 concurrent writers, and how fast a subscriber
// catches up on the resulting log. Runs in a scratch database on the server of DATABASE_URL.
// Usage: npx tsx eventstore/bench/append-throughput.ts

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const APPENDS_PER_CASE = 4000;
const ROUNDS = 3;
const CATCH_UP_BATCH_SIZE = 500;

const appendOneTo =
  (store: EventStore): AppendOne =>
  async (streamId, event, expected) =>
    (await store.append(streamId, [event], expected ?? 'no_stream')).nextExpectedRevision;

const measureAppends = async (store: EventStore, writers: number) => {
  const rates: number[] = [];
  const latencies: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const started = performance.now();
    latencies.push(...(await runWriters(appendOneTo(store), `w${writers}r${round}`, writers, APPENDS_PER_CASE)));
    rates.push(APPENDS_PER_CASE / ((performance.now() - started) / 1000));
  }
  return { rates, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
};

const measureCatchUp = async (store: EventStore, expected: number) => {
  const started = performance.now();
  let received = 0;
  let done = (): void => undefined;
  const caughtUp = new Promise<void>((resolve) => {
    done = resolve;
  });
  const subscription = store.subscribeToAll(
    'start',
    async (batch) => {
      received += batch.length;
      if (received >= expected) done();
    },
    { batchSize: CATCH_UP_BATCH_SIZE },
  );
  await caughtUp;
  const seconds = (performance.now() - started) / 1000;
  await subscription.stop();
  return { events: received, seconds, rate: received / seconds };
};

const main = async (): Promise<void> => {
  const name = `cc_bench_eventstore_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  const store = createPostgresEventStore({ pool });
  try {
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    console.log(`PostgreSQL ${rows[0]?.server_version}, Node ${process.version}, scratch database ${name}`);
    console.log(`load average at start: ${loadAverage()}`);
    await migrateEventStore(pool);
    // Opens the pool's connections and prepares the statements on them; not measured.
    await runWriters(appendOneTo(store), 'warmup', 8, 400);

    const single = await measureAppends(store, 1);
    const eight = await measureAppends(store, 8);
    const { rows: counted } = await pool.query<{ count: string }>('select count(*) from events');
    const catchUp = await measureCatchUp(store, Number(counted[0]?.count));

    const format = (rates: number[]) => rates.map((rate) => Math.round(rate)).join(', ');
    console.log(`appends: ${APPENDS_PER_CASE} single-event appends per round, ${ROUNDS} rounds per case`);
    console.log(
      `1 writer : median ${Math.round(median(single.rates))} events/s (rounds: ${format(single.rates)}); ` +
        `latency p50 ${single.p50.toFixed(2)} ms, p99 ${single.p99.toFixed(2)} ms`,
    );
    console.log(
      `8 writers: median ${Math.round(median(eight.rates))} events/s (rounds: ${format(eight.rates)}); ` +
        `latency p50 ${eight.p50.toFixed(2)} ms, p99 ${eight.p99.toFixed(2)} ms`,
    );
    console.log(
      `catch-up : ${catchUp.events} events from the start in ${catchUp.seconds.toFixed(2)} s = ` +
        `${Math.round(catchUp.rate)} events/s (batches of ${CATCH_UP_BATCH_SIZE})`,
    );
    console.log(`load average at end: ${loadAverage()}`);
    console.log(`goal ≥ 3000 events/s with 8 writers: ${median(eight.rates) >= 3000 ? 'met' : 'NOT met'}`);
  } finally {
    await store.close();
    await endPool(pool);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
};

await main();
