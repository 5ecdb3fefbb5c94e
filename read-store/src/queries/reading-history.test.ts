import type { PerilDataSource } from '@cropcover/contracts';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '../migrations/migrate-read-models';
import type { ReadModels } from '../read-models';
import { loadReadingHistory } from './reading-history';

const OWN = 'organization-fields:org-1';
const OTHER = 'organization-fields:org-2';
const STATION = 'chirps-stations';

const row = (
  index: string,
  date: string,
  value: number,
  { source_id = OWN, location = 'farm-1/north', revision = 1 } = {},
) => ({
  source_id,
  location,
  index,
  date,
  value,
  note: null,
  revision,
  recorded_at: '2026-03-01T00:00:00.000Z',
  recorded_by: 'provider-1',
});

const data = (index: PerilDataSource['index'], location = 'farm-1/north', source_id = OWN): PerilDataSource => ({
  source_id,
  kind: 'field',
  index,
  location,
});

describe('loading each peril’s reading history from its source and location', () => {
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
        row('rainfall_mm', '2026-01-01', 123.456789012345, { revision: 3 }),
        row('rainfall_mm', '2025-12-31', 1e-7),
        row('rainfall_mm', '2026-01-02', 0),
        row('ndvi', '2026-01-02', -0.35),
        row('ndvi', '2026-01-01', 0.7, { revision: 2 }),
        row('wind_speed_ms', '2026-01-01', 33.3),
        row('rainfall_mm', '2026-01-01', 99, { location: 'farm-1/south' }),
        // The same field's readings posted by another organization, and a station's series.
        row('rainfall_mm', '2026-01-01', 500, { source_id: OTHER }),
        row('rainfall_mm', '2026-01-02', 400, { source_id: OTHER }),
        row('rainfall_mm', '2026-01-01', 7, { source_id: STATION, location: 'KE-0042' }),
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('returns each peril’s series in ascending date order, values and revisions exactly as recorded', async () => {
    const history = await loadReadingHistory(db, {
      sources: { drought: data('rainfall_mm'), vegetation_stress: data('ndvi') },
    });
    expect(history).toEqual({
      drought: [
        { date: '2025-12-31', value: 1e-7, revision: 1 },
        { date: '2026-01-01', value: 123.456789012345, revision: 3 },
        { date: '2026-01-02', value: 0, revision: 1 },
        { date: '2026-01-03', value: 0.1, revision: 1 },
      ],
      vegetation_stress: [
        { date: '2026-01-01', value: 0.7, revision: 2 },
        { date: '2026-01-02', value: -0.35, revision: 1 },
      ],
    });
  });

  it('gives two perils reading the same series one shared list', async () => {
    const history = await loadReadingHistory(db, {
      sources: { drought: data('rainfall_mm'), flood: data('rainfall_mm') },
    });
    expect(history.drought).toHaveLength(4);
    expect(history.flood).toBe(history.drought);
  });

  it('never mixes in the series of another source or location', async () => {
    const history = await loadReadingHistory(db, {
      sources: {
        drought: data('rainfall_mm', 'farm-1/north', OTHER),
        flood: { source_id: STATION, kind: 'station', index: 'rainfall_mm', location: 'KE-0042', distance_km: 3 },
        storm: data('wind_speed_ms', 'farm-1/north', OTHER),
      },
    });
    expect(history).toEqual({
      drought: [
        { date: '2026-01-01', value: 500, revision: 1 },
        { date: '2026-01-02', value: 400, revision: 1 },
      ],
      flood: [{ date: '2026-01-01', value: 7, revision: 1 }],
      storm: [],
    });
    const south = await loadReadingHistory(db, { sources: { drought: data('rainfall_mm', 'farm-1/south') } });
    expect(south).toEqual({ drought: [{ date: '2026-01-01', value: 99, revision: 1 }] });
  });

  it('keeps to the date range, both ends included', async () => {
    const history = await loadReadingHistory(db, {
      sources: { drought: data('rainfall_mm') },
      from: '2026-01-01',
      to: '2026-01-02',
    });
    expect(history.drought?.map(({ date }) => date)).toEqual(['2026-01-01', '2026-01-02']);
  });

  it('gives an empty list for a peril whose data has no readings and nothing for perils not asked', async () => {
    const history = await loadReadingHistory(db, {
      sources: { vegetation_stress: data('ndvi', 'farm-1/south'), drought: data('rainfall_mm', 'farm-1/south') },
    });
    expect(history).toEqual({ vegetation_stress: [], drought: [{ date: '2026-01-01', value: 99, revision: 1 }] });
    expect(await loadReadingHistory(db, { sources: {} })).toEqual({});
    expect(await loadReadingHistory(db, { sources: { storm: data('wind_speed_ms', 'farm-2/north') } })).toEqual({
      storm: [],
    });
  });

  it('loads 30 years of three daily indices of one location', async () => {
    const days = 30 * 365;
    const dates = Array.from({ length: days }, (_, day) =>
      new Date(Date.UTC(1990, 0, 1 + day)).toISOString().slice(0, 10),
    );
    await sql`
      insert into index_readings (source_id, location, "index", "date", "value", note, revision, recorded_at)
      select ${OWN}, 'farm-1/long', reading_index, date '1990-01-01' + day, (day % 100) / 100.0, null, 1, now()
      from unnest(array['rainfall_mm', 'ndvi', 'wind_speed_ms']) as reading_index,
           generate_series(0, ${days - 1}) as day`.execute(db);
    const history = await loadReadingHistory(db, {
      sources: {
        drought: data('rainfall_mm', 'farm-1/long'),
        vegetation_stress: data('ndvi', 'farm-1/long'),
        storm: data('wind_speed_ms', 'farm-1/long'),
      },
    });
    expect(history.vegetation_stress).toHaveLength(days);
    expect(history.drought).toHaveLength(days);
    expect(history.storm?.at(-1)).toEqual({ date: dates.at(-1), value: ((days - 1) % 100) / 100, revision: 1 });
  });
});
