import type { PerilDataSource } from '@cropcover/contracts';
import { loadReadingHistory, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordIndexReadings, type SourceReading } from '../index-readings/record-index-readings';
import { readingHistoryCache } from './cached-reading-history';

// Two instances of the application on one database, each with its own pool and cache, as two command-API
// processes are: one records readings, the other must price from them as soon as the write returns.

const GRID = 'grid-1';
const AT = new Date('2026-03-01T06:00:00.000Z');

const data = (location: string, index: PerilDataSource['index'] = 'rainfall_mm'): PerilDataSource => ({
  source_id: GRID,
  location,
  index,
  kind: 'grid',
});

const daily = (location: string, index: string, from: string, values: readonly number[]): SourceReading[] =>
  values.map((value, day) => ({
    sourceId: GRID,
    location,
    index: index as SourceReading['index'],
    date: new Date(Date.parse(`${from}T00:00:00Z`) + day * 86_400_000).toISOString().slice(0, 10),
    value,
    note: null,
  }));

describe('the reading-history cache', () => {
  let database: TestDatabase;
  let reader: Kysely<ReadModels>;
  let writer: Kysely<ReadModels>;
  const instance = (url: string) =>
    createKysely<ReadModels>(createPool(url, createLogger({ level: 'silent' }), { max: 4 }));
  const record = (readings: readonly SourceReading[]) =>
    writer.transaction().execute((trx) => recordIndexReadings(trx, readings, AT, 'provider-1'));

  beforeAll(async () => {
    database = await createTestDatabase('cached_reading_history');
    reader = instance(database.url);
    writer = instance(database.url);
    await migrateReadModels(reader);
  });
  afterAll(async () => {
    await reader?.destroy();
    await writer?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await writer.deleteFrom('index_readings').execute();
  });

  it('answers what the read store holds, by range, with perils on one series sharing one list', async () => {
    await record([
      ...daily('cell-a', 'rainfall_mm', '2025-12-30', [1.5, 0, 12.25, 0.1, 3]),
      ...daily('cell-a', 'ndvi', '2025-12-30', [0.41, 0.42]),
    ]);
    const cache = readingHistoryCache(reader);
    for (const range of [{}, { from: '2025-12-31', to: '2026-01-02' }, { from: '2026-01-03' }, { to: '2025-12-29' }]) {
      const query = {
        sources: { drought: data('cell-a'), flood: data('cell-a'), vegetation_stress: data('cell-a', 'ndvi') },
        ...range,
      };
      const cached = await cache.read(query);
      expect(cached).toEqual(await loadReadingHistory(reader, query));
      expect(cached.flood).toBe(cached.drought);
    }
    expect(await cache.read({ sources: { storm: data('cell-b', 'wind_speed_ms') } })).toEqual({ storm: [] });
  });

  it('reads a bilinear point from its four cells, as the read store does, and sees a cell replaced', async () => {
    // (−1.3, 30.5) on 0.25°: weights 0.35, 0.35, 0.15, 0.15 on the cells below; a cell lacking a date
    // makes that date missing.
    await record([
      ...daily('-1.5,30.25', 'rainfall_mm', '2024-03-01', [1.000001, 4]),
      ...daily('-1.5,30.5', 'rainfall_mm', '2024-03-01', [2.5, 4]),
      ...daily('-1.25,30.25', 'rainfall_mm', '2024-03-01', [3.333333, 4]),
      ...daily('-1.25,30.5', 'rainfall_mm', '2024-03-01', [7]),
    ]);
    const point: PerilDataSource = {
      ...data('-1.3,30.5'),
      sampling: { method: 'bilinear', point: { lat: -1.3, lon: 30.5 }, resolution_deg: 0.25 },
    };
    const cache = readingHistoryCache(reader);
    const query = { sources: { drought: point } };
    expect(await cache.read(query)).toEqual({ drought: [{ date: '2024-03-01', value: 2.775, revision: 4 }] });
    expect(await cache.read(query)).toEqual(await loadReadingHistory(reader, query));
    await record(daily('-1.25,30.5', 'rainfall_mm', '2024-03-01', [8]));
    expect(await cache.read(query)).toEqual({ drought: [{ date: '2024-03-01', value: 2.925, revision: 5 }] });
  });

  it('prices from readings another instance recorded, replaced or deleted, as soon as its write returns', async () => {
    await record(daily('cell-a', 'rainfall_mm', '2026-01-01', [1, 2, 3]));
    const cache = readingHistoryCache(reader);
    const rainfall = async () =>
      ((await cache.read({ sources: { drought: data('cell-a') } })).drought ?? []).map((reading) => reading.value);
    expect(await rainfall()).toEqual([1, 2, 3]);
    expect(await rainfall()).toEqual([1, 2, 3]);

    await record(daily('cell-a', 'rainfall_mm', '2026-01-04', [4]));
    expect(await rainfall()).toEqual([1, 2, 3, 4]);
    await record(daily('cell-a', 'rainfall_mm', '2026-01-02', [20]));
    expect(await rainfall()).toEqual([1, 20, 3, 4]);
    // Another index of the same location moves its version too: the rainfall is read again, unchanged.
    await record(daily('cell-a', 'ndvi', '2026-01-01', [0.5]));
    expect(await rainfall()).toEqual([1, 20, 3, 4]);
    // Writers other than the API: a hand-run fix, a truncate.
    await writer.deleteFrom('index_readings').where('date', '=', sql<string>`'2026-01-01'::date`).execute();
    expect(await rainfall()).toEqual([20, 3, 4]);
    await sql`truncate index_readings`.execute(writer);
    expect(await rainfall()).toEqual([]);
    await record(daily('cell-a', 'rainfall_mm', '2026-01-01', [7]));
    expect(await rainfall()).toEqual([7]);
  });

  it('holds no more readings than its bound, and answers right beyond it', async () => {
    const locations = ['cell-1', 'cell-2', 'cell-3', 'cell-4'];
    for (const [at, location] of locations.entries()) {
      await record(daily(location, 'rainfall_mm', '2026-01-01', [at, at, at, at, at, at]));
    }
    await record(
      daily(
        'cell-big',
        'rainfall_mm',
        '2025-01-01',
        Array.from({ length: 20 }, () => 9),
      ),
    );
    const cache = readingHistoryCache(reader, 12);
    for (const round of [1, 2]) {
      for (const [at, location] of locations.entries()) {
        const { drought } = await cache.read({ sources: { drought: data(location) } });
        expect(drought?.map((reading) => reading.value)).toEqual([at, at, at, at, at, at]);
        expect(cache.cachedReadings()).toBeLessThanOrEqual(12);
      }
      const { drought } = await cache.read({ sources: { drought: data('cell-big') } });
      expect(drought).toHaveLength(20);
      expect(cache.cachedReadings(), `round ${round}`).toBeLessThanOrEqual(12);
    }
    expect(cache.cachedReadings()).toBe(12);
  });
});
