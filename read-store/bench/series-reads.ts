import { loadavg } from 'node:os';
import { createKysely, createLogger, createPool, endPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import { sql } from 'kysely';
import { migrateReadModels } from '../src/migrations/migrate-read-models';
import { loadSeriesReadings, loadSeriesReadingsBefore, type SeriesRange } from '../src/queries/series-readings';
import type { ReadModels } from '../src/read-models';

// Reading an as-if backtest's series from PostgreSQL (issue 32): one query per location as of today (the
// job before), one per location as of an instant, and the job's batches of 32 series a query as of the end
// of `as_of`. LOCATIONS locations × 730 days of rainfall, every tenth reading revised after the instant.
// Usage: npx tsx read-store/bench/series-reads.ts [locations, default 500]

const LOCATIONS = Number(process.argv[2] ?? 500);
const BATCH = 32;
const FROM = '2024-01-01';
const TO = '2025-12-30';
const STANDING = new Date('2026-06-01T00:00:00.000Z');

console.info(
  `load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}`,
);
const database = await createTestDatabase('bench_series_reads');
const pool = createPool(database.url, createLogger({ level: 'silent' }));
const db = createKysely<ReadModels>(pool);
try {
  await migrateReadModels(db);
  await sql`
    insert into index_readings (source_id, location, "index", "date", "value", note, revision, recorded_at, recorded_by)
    select 'bench', 'cell-' || cell, 'rainfall_mm', day::date, (cell + extract(doy from day)) % 30, null,
           case when extract(doy from day)::integer % 10 = 0 then 2 else 1 end,
           case when extract(doy from day)::integer % 10 = 0 then timestamptz '2026-07-01' else timestamptz '2026-05-01' end,
           'bench'
    from generate_series(1, ${LOCATIONS}) cell, generate_series(${FROM}::date, ${TO}::date, interval '1 day') day`.execute(
    db,
  );
  await sql`
    insert into index_reading_revisions
      (source_id, location, "index", "date", revision, "value", note, recorded_at, recorded_by, replaced_at)
    select source_id, location, "index", "date", 1, "value" + 1, null, timestamptz '2026-05-01', 'bench',
           timestamptz '2026-07-01'
    from index_readings where revision = 2`.execute(db);
  await sql`analyze`.execute(db);
  const series: SeriesRange[] = Array.from({ length: LOCATIONS }, (_, at) => ({
    sourceId: 'bench',
    location: `cell-${at + 1}`,
    index: 'rainfall_mm',
    from: FROM,
    to: TO,
  }));
  const ways: Record<string, () => Promise<number>> = {
    'one query per location, current readings (the job before)': async () => {
      let rows = 0;
      for (const one of series) rows += (await loadSeriesReadings(db, one)).length;
      return rows;
    },
    'one query per location, as of the instant': async () => {
      let rows = 0;
      for (const one of series) rows += (await loadSeriesReadings(db, { ...one, asOf: STANDING })).length;
      return rows;
    },
    [`${BATCH} series a query, as of the instant (the job now)`]: async () => {
      let rows = 0;
      for (let at = 0; at < series.length; at += BATCH) {
        for (const found of await loadSeriesReadingsBefore(db, series.slice(at, at + BATCH), STANDING)) {
          rows += found.length;
        }
      }
      return rows;
    },
  };
  const timings = new Map<string, number[]>();
  for (let round = 0; round < 3; round += 1) {
    for (const [name, way] of Object.entries(ways)) {
      const started = process.hrtime.bigint();
      const rows = await way();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (round > 0) timings.set(name, [...(timings.get(name) ?? []), ms]);
      console.info(`round ${round}: ${name}: ${rows} readings in ${ms.toFixed(0)} ms`);
    }
  }
  const anchor = Math.min(...timings.values().next().value!);
  for (const [name, ms] of timings) {
    const best = Math.min(...ms);
    console.info(`${name}: best ${best.toFixed(0)} ms, ${(best / anchor).toFixed(2)}× the first`);
  }
} finally {
  await endPool(pool);
  await database.drop();
}
