import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '../migrations/migrate-read-models';
import type { ReadModels } from '../read-models';
import { loadReadingHistory } from './reading-history';

const row = (index: string, date: string, value: number, field_id = 'north') => ({
  farm_id: 'farm-1',
  field_id,
  index,
  date,
  value,
  source: null,
  revision: 1,
  recorded_at: '2026-03-01T00:00:00.000Z',
});

describe('loading a field’s reading history', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('reading_history');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateReadModels(db);
    // Inserted out of order, with values a float column could mangle if it were not exact.
    await db
      .insertInto('index_readings')
      .values([
        row('rainfall_mm', '2026-01-03', 0.1),
        row('rainfall_mm', '2026-01-01', 123.456789012345),
        row('rainfall_mm', '2025-12-31', 1e-7),
        row('rainfall_mm', '2026-01-02', 0),
        row('ndvi', '2026-01-02', -0.35),
        row('ndvi', '2026-01-01', 0.7),
        row('wind_speed_ms', '2026-01-01', 33.3),
        row('rainfall_mm', '2026-01-01', 99, 'south'),
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('returns each asked index in ascending date order, values exactly as recorded', async () => {
    const history = await loadReadingHistory(db, {
      farmId: 'farm-1',
      fieldId: 'north',
      indices: ['rainfall_mm', 'ndvi'],
    });
    expect(history).toEqual({
      rainfall_mm: [
        { date: '2025-12-31', value: 1e-7 },
        { date: '2026-01-01', value: 123.456789012345 },
        { date: '2026-01-02', value: 0 },
        { date: '2026-01-03', value: 0.1 },
      ],
      ndvi: [
        { date: '2026-01-01', value: 0.7 },
        { date: '2026-01-02', value: -0.35 },
      ],
    });
  });

  it('keeps to the date range, both ends included', async () => {
    const history = await loadReadingHistory(db, {
      farmId: 'farm-1',
      fieldId: 'north',
      indices: ['rainfall_mm'],
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(history.rainfall_mm?.map(({ date }) => date)).toEqual(['2026-01-01', '2026-01-02']);
  });

  it('gives an empty list for an index without readings and nothing for indices not asked', async () => {
    const history = await loadReadingHistory(db, {
      farmId: 'farm-1',
      fieldId: 'south',
      indices: ['ndvi', 'rainfall_mm'],
    });
    expect(history).toEqual({ ndvi: [], rainfall_mm: [{ date: '2026-01-01', value: 99 }] });
    expect(await loadReadingHistory(db, { farmId: 'farm-1', fieldId: 'north', indices: [] })).toEqual({});
    expect(await loadReadingHistory(db, { farmId: 'farm-2', fieldId: 'north', indices: ['wind_speed_ms'] })).toEqual({
      wind_speed_ms: [],
    });
  });

  it('loads 30 years of three daily indices of one field quickly, off the primary key', async () => {
    const days = 30 * 365;
    const dates = Array.from({ length: days }, (_, day) =>
      new Date(Date.UTC(1990, 0, 1 + day)).toISOString().slice(0, 10),
    );
    await sql`
      insert into index_readings (farm_id, field_id, "index", "date", "value", source, revision, recorded_at)
      select 'farm-1', 'long', reading_index, date '1990-01-01' + day, (day % 100) / 100.0, null, 1, now()
      from unnest(array['rainfall_mm', 'ndvi', 'wind_speed_ms']) as reading_index,
           generate_series(0, ${days - 1}) as day`.execute(db);
    const started = performance.now();
    const history = await loadReadingHistory(db, {
      farmId: 'farm-1',
      fieldId: 'long',
      indices: ['rainfall_mm', 'ndvi', 'wind_speed_ms'],
    });
    const elapsedMs = performance.now() - started;
    expect(history.ndvi).toHaveLength(days);
    expect(history.wind_speed_ms?.at(-1)).toEqual({ date: dates.at(-1), value: ((days - 1) % 100) / 100 });
    expect(elapsedMs).toBeLessThan(1_000);
  });
});
