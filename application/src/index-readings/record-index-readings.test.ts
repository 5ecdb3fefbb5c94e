import type { IndexReading } from '@cropcover/contracts';
import { calendarDateOf, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordIndexReadings } from './record-index-readings';

const FIRST = new Date('2026-03-01T06:00:00.000Z');
const SECOND = new Date('2026-03-02T06:00:00.000Z');

const rainfall = (date: string, value: number, extra: Partial<IndexReading> = {}): IndexReading => ({
  farm_id: 'farm-1',
  field_id: 'north',
  index: 'rainfall_mm',
  date,
  value,
  ...extra,
});

describe('recording index readings', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const record = (readings: readonly IndexReading[], at = FIRST) =>
    db.transaction().execute((trx) => recordIndexReadings(trx, readings, at));
  const current = () =>
    db
      .selectFrom('index_readings')
      .select((eb) => [
        'farm_id',
        'field_id',
        'index',
        calendarDateOf(eb.ref('date')).as('date'),
        'value',
        'source',
        'revision',
        'recorded_at',
      ])
      .orderBy('date')
      .orderBy('index')
      .execute();
  const revisions = () =>
    db
      .selectFrom('index_reading_revisions')
      .select((eb) => [
        calendarDateOf(eb.ref('date')).as('date'),
        'revision',
        'value',
        'source',
        'recorded_at',
        'replaced_at',
      ])
      .orderBy('date')
      .orderBy('revision')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase('record_readings');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' }), { max: 4 }));
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('index_readings').execute();
    await db.deleteFrom('index_reading_revisions').execute();
  });

  it('inserts new keys as revision 1 with the time they were recorded', async () => {
    const outcome = await record([
      rainfall('2026-02-01', 12.5, { source: 'chirps' }),
      rainfall('2026-02-02', 0),
      rainfall('2026-02-01', 0.61, { index: 'ndvi' }),
    ]);
    expect(outcome).toEqual({ inserted: 3, updated: 0 });
    expect(await current()).toEqual([
      {
        farm_id: 'farm-1',
        field_id: 'north',
        index: 'ndvi',
        date: '2026-02-01',
        value: 0.61,
        source: null,
        revision: 1,
        recorded_at: FIRST,
      },
      {
        farm_id: 'farm-1',
        field_id: 'north',
        index: 'rainfall_mm',
        date: '2026-02-01',
        value: 12.5,
        source: 'chirps',
        revision: 1,
        recorded_at: FIRST,
      },
      {
        farm_id: 'farm-1',
        field_id: 'north',
        index: 'rainfall_mm',
        date: '2026-02-02',
        value: 0,
        source: null,
        revision: 1,
        recorded_at: FIRST,
      },
    ]);
    expect(await revisions()).toEqual([]);
  });

  it('replaces a changed value as the next revision and keeps the earlier one', async () => {
    await record([rainfall('2026-02-01', 12.5, { source: 'gauge' }), rainfall('2026-02-02', 3)]);
    const outcome = await record(
      [rainfall('2026-02-01', 14.25, { source: 'gauge' }), rainfall('2026-02-02', 3), rainfall('2026-02-03', 1)],
      SECOND,
    );
    expect(outcome).toEqual({ inserted: 1, updated: 1 });
    const rows = await current();
    expect(rows.map(({ date, value, revision, recorded_at }) => ({ date, value, revision, recorded_at }))).toEqual([
      { date: '2026-02-01', value: 14.25, revision: 2, recorded_at: SECOND },
      { date: '2026-02-02', value: 3, revision: 1, recorded_at: FIRST },
      { date: '2026-02-03', value: 1, revision: 1, recorded_at: SECOND },
    ]);
    expect(await revisions()).toEqual([
      { date: '2026-02-01', revision: 1, value: 12.5, source: 'gauge', recorded_at: FIRST, replaced_at: SECOND },
    ]);

    await record([rainfall('2026-02-01', 9)], new Date('2026-03-03T00:00:00.000Z'));
    expect((await revisions()).map(({ revision, value }) => ({ revision, value }))).toEqual([
      { revision: 1, value: 12.5 },
      { revision: 2, value: 14.25 },
    ]);
    expect((await current())[0]).toMatchObject({ value: 9, revision: 3 });
  });

  it('counts an unchanged re-send as neither inserted nor updated and leaves it untouched', async () => {
    const readings = [rainfall('2026-02-01', 12.5, { source: 'gauge' }), rainfall('2026-02-02', 0.1)];
    await record(readings);
    const before = await current();
    expect(await record(readings, SECOND)).toEqual({ inserted: 0, updated: 0 });
    expect(await current()).toEqual(before);
    expect(await revisions()).toEqual([]);
  });

  it('treats a changed source as a new revision of the same value', async () => {
    await record([rainfall('2026-02-01', 5, { source: 'gauge' })]);
    expect(await record([rainfall('2026-02-01', 5)], SECOND)).toEqual({ inserted: 0, updated: 1 });
    expect(await revisions()).toMatchObject([{ revision: 1, value: 5, source: 'gauge' }]);
  });

  it('writes nothing of a batch when one row fails in the database', async () => {
    await record([rainfall('2026-02-01', 1)]);
    const before = await current();
    // The schema refuses such a date before it gets here; the database is the last line.
    await expect(
      record([rainfall('2026-02-01', 2), rainfall('2026-02-02', 3), rainfall('2026-02-30', 4)]),
    ).rejects.toThrow(/date/);
    expect(await current()).toEqual(before);
    expect(await revisions()).toEqual([]);
  });

  it('keeps every value when writers of one field race on a new key', async () => {
    const values = [1, 2, 3, 4, 5, 6];
    const outcomes = await Promise.all(values.map((value) => record([rainfall('2026-02-01', value)])));
    expect(outcomes.reduce((sum, { inserted }) => sum + inserted, 0)).toBe(1);
    expect(outcomes.reduce((sum, { updated }) => sum + updated, 0)).toBe(5);
    const [row] = await current();
    expect(row?.revision).toBe(6);
    const kept = [...(await revisions()).map(({ value }) => value), row?.value];
    expect(kept.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(values);
  });

  it('upserts 10,000 readings in one round trip, well under a second', async () => {
    const readings = Array.from({ length: 10_000 }, (_, day) =>
      rainfall(new Date(Date.UTC(1996, 0, 1 + day)).toISOString().slice(0, 10), (day % 300) / 10),
    );
    const started = performance.now();
    expect(await record(readings)).toEqual({ inserted: 10_000, updated: 0 });
    const insertMs = performance.now() - started;
    const restarted = performance.now();
    expect(
      await record(
        readings.map((reading) => ({ ...reading, value: reading.value + 1 })),
        SECOND,
      ),
    ).toEqual({
      inserted: 0,
      updated: 10_000,
    });
    const updateMs = performance.now() - restarted;
    expect(insertMs).toBeLessThan(1_000);
    expect(updateMs).toBeLessThan(1_000);
  });
});
