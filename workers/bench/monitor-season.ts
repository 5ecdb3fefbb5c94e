import { randomBytes, randomUUID } from 'node:crypto';
import type { PolicyIssued } from '@cropcover/contracts';
import { createPostgresEventStore, migrateEventStore } from '@cropcover/eventstore';
import { policiesProjection, rebuildProjections } from '@cropcover/projector';
import { policyStory } from '@cropcover/projector/testing';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool, settableClock } from '@cropcover/runtime';
import { sql } from 'kysely';
import { createMonitorMetrics } from '../src/monitor/monitor-metrics';
import { runMonitorTick } from '../src/monitor/monitor-tick';

// A whole season of daily monitoring (issue 20, SPEC §7 "What the log records"): N policies (drought,
// flood, storm) on a few grid cells, a daily feed bringing each cell's rainfall and wind of the day
// before every morning, and one monitor pass a day from the term's start to its closing (term end plus
// the settlement period). Rain falls on most days in varying amounts, so a drought's running total moves
// daily; one cell in ten floods in April. Prints the events the season appended per policy and the bytes
// they take in the log (the events table, indexes included, vacuumed), and the round table's bytes per
// policy where it exists. The same file runs against another checkout for a before/after figure.
// Usage: npx tsx workers/bench/monitor-season.ts   (BENCH_POLICIES, default 300; BENCH_CELLS, default 30;
// DATABASE_URL). Creates a scratch database cc_bench_season_* on the server and drops it.

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 300);
const CELLS = Number(process.env.BENCH_CELLS ?? 30);
const SOURCE_ID = 'src-grid-bench';
const TERM = { start: '2026-03-01', end: '2026-08-31' };
const ISSUED_AT = '2026-02-27T08:00:00.000Z';
const PERILS = ['drought', 'flood', 'storm'] as const;
const DAY_MS = 86_400_000;

const admin = async (statement: string): Promise<void> => {
  const server = createPool(SERVER_URL, createLogger({ level: 'warn' }), { max: 1 });
  try {
    await server.query(statement);
  } finally {
    await endPool(server);
  }
};

const name = `cc_bench_season_${randomBytes(4).toString('hex')}`;
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
await admin(`create database ${name}`);
const logger = createLogger({ level: 'warn' });
const pool = createPool(url.toString(), logger, { max: 10 });
const db = createKysely<ReadModels>(pool);
const eventStore = createPostgresEventStore({ pool });
const cellOf = (cell: number): string =>
  `${(-4 + 0.05 * Math.floor(cell / 40)).toFixed(3)},${(34 + 0.05 * (cell % 40)).toFixed(3)}`;
const locations = Array.from({ length: CELLS }, (_, n) => cellOf(n));

/** The feed's readings of one day on every cell: rain on most days, 0–6 mm, a 5-day flood on one cell in
 *  ten in mid-April; wind 4–8 m/s. */
const feedDay = async (date: string): Promise<void> => {
  await sql`
    insert into index_readings (source_id, location, index, date, value, note, revision, recorded_at, recorded_by)
    select ${SOURCE_ID}, cells.location, series.index, ${date}::date,
      case
        when series.index = 'wind_speed_ms' then 4 + (cells.n * 7 + extract(doy from ${date}::date)::int) % 5
        when cells.n % 10 = 0 and ${date}::date between '2026-04-10' and '2026-04-14' then 40
        else ((cells.n * 13 + extract(doy from ${date}::date)::int) % 7)::double precision
      end,
      null, 1, now(), 'provider-bench'
    from unnest(${locations}::text[]) with ordinality as cells(location, n)
    cross join (values ('rainfall_mm'), ('wind_speed_ms')) as series(index)`.execute(db);
};

const eventsBytes = async (): Promise<{ bytes: number; count: number }> => {
  await pool.query('vacuum analyze events');
  const { rows } = await pool.query<{ bytes: string; count: string }>(
    `select pg_total_relation_size('events')::text as bytes, (select count(*) from events)::text as count`,
  );
  return { bytes: Number(rows[0]!.bytes), count: Number(rows[0]!.count) };
};

try {
  await migrateEventStore(pool);
  await migrateReadModels(db);
  const story = policyStory({
    policyId: 'template',
    organizationId: 'org-bench',
    perils: PERILS,
    termStart: TERM.start,
    termEnd: TERM.end,
    issuedAt: ISSUED_AT,
  });
  const template = story.events[0]!;
  const issued = template.data as PolicyIssued;
  for (let i = 0; i < POLICIES; i += 1) {
    const policyId = `pol-${String(i).padStart(7, '0')}`;
    const location = cellOf(i % CELLS);
    const data: PolicyIssued = {
      ...issued,
      policy_id: policyId,
      farm_id: `farm-${i}`,
      data_sources: Object.fromEntries(
        issued.triggers.map((terms) => [
          terms.peril,
          { source_id: SOURCE_ID, kind: 'grid', index: terms.reading, location },
        ]),
      ),
    };
    await eventStore.append(
      `policy-${policyId}`,
      [{ type: template.type, data, metadata: { ...template.metadata, event_id: randomUUID() } }],
      'no_stream',
    );
  }
  await rebuildProjections({ eventStore, db, projections: [policiesProjection] });
  const atIssue = await eventsBytes();

  const closing = Date.parse(`${TERM.end}T00:00:00.000Z`) + (issued.settlement_period_days ?? 0) * DAY_MS + DAY_MS;
  const clock = settableClock(`${TERM.start}T00:05:00.000Z`);
  const metrics = createMonitorMetrics();
  const totals = { days: 0, evaluated: 0, unchanged: 0, closed: 0, failed: 0 };
  const started = performance.now();
  for (let at = Date.parse(`${TERM.start}T00:05:00.000Z`); at <= closing; at += DAY_MS) {
    const today = new Date(at);
    const yesterday = new Date(at - DAY_MS).toISOString().slice(0, 10);
    if (yesterday >= TERM.start && yesterday <= TERM.end) await feedDay(yesterday);
    clock.set(today);
    const tick = await runMonitorTick({ deps: { eventStore, db }, clock, logger, metrics });
    totals.days += 1;
    totals.evaluated += tick.evaluated;
    totals.unchanged += tick.unchanged;
    totals.closed += tick.closed;
    totals.failed += tick.failed;
  }
  const seconds = (performance.now() - started) / 1000;
  const atClose = await eventsBytes();
  // The round table exists only where the monitor keeps its days (looked up first: a missing relation
  // named in the size query would fail it).
  const { rows: roundTable } = await pool.query<{ exists: boolean }>(
    `select to_regclass('policy_monitor_days') is not null as exists`,
  );
  const roundBytes = roundTable[0]?.exists
    ? Number((await pool.query(`select pg_total_relation_size('policy_monitor_days') as bytes`)).rows[0].bytes)
    : null;
  const { rows: types } = await pool.query<{ type: string; n: string }>(
    `select event_type as type, count(*)::text as n from events where event_type <> 'PolicyIssued' group by event_type order by event_type`,
  );
  console.log(
    JSON.stringify({
      policies: POLICIES,
      cells: CELLS,
      ...totals,
      seconds: Number(seconds.toFixed(1)),
      events_per_policy_per_season: Number(((atClose.count - atIssue.count) / POLICIES).toFixed(2)),
      log_bytes_per_policy_per_season: Math.round((atClose.bytes - atIssue.bytes) / POLICIES),
      round_table_bytes_per_policy_per_season: roundBytes === null ? null : Math.round(roundBytes / POLICIES),
      events_by_type: Object.fromEntries(types.map(({ type, n }) => [type, Number(n)])),
    }),
  );
} finally {
  await eventStore.close();
  await endPool(pool);
  await admin(`drop database ${name} with (force)`);
}
