import { calendarDateOf, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordIndexReadings, type SourceReading } from './record-index-readings';

const FIRST = new Date('2026-03-01T06:00:00.000Z');
const SECOND = new Date('2026-03-02T06:00:00.000Z');

const OWN = 'organization-fields:org-1';
const WRITER = 'provider-1';

const rainfall = (date: string, value: number, extra: Partial<SourceReading> = {}): SourceReading => ({
  sourceId: OWN,
  location: 'farm-1/north',
  index: 'rainfall_mm',
  date,
  value,
  note: null,
  ...extra,
});

describe('recording index readings', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const record = (readings: readonly SourceReading[], at = FIRST, by = WRITER) =>
    db.transaction().execute((trx) => recordIndexReadings(trx, readings, at, by));
  const current = () =>
    db
      .selectFrom('index_readings')
      .select((eb) => [
        'source_id',
        'location',
        'index',
        calendarDateOf(eb.ref('date')).as('date'),
        'value',
        'note',
        'revision',
        'recorded_at',
        'recorded_by',
      ])
      .orderBy('source_id')
      .orderBy('location')
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
        'note',
        'recorded_at',
        'replaced_at',
      ])
      .orderBy('source_id')
      .orderBy('location')
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
      rainfall('2026-02-01', 12.5, { note: 'chirps' }),
      rainfall('2026-02-02', 0),
      rainfall('2026-02-01', 0.61, { index: 'ndvi' }),
    ]);
    expect(outcome).toEqual({ inserted: 3, updated: 0 });
    expect(await current()).toEqual([
      {
        source_id: OWN,
        location: 'farm-1/north',
        index: 'ndvi',
        date: '2026-02-01',
        value: 0.61,
        note: null,
        revision: 1,
        recorded_at: FIRST,
        recorded_by: WRITER,
      },
      {
        source_id: OWN,
        location: 'farm-1/north',
        index: 'rainfall_mm',
        date: '2026-02-01',
        value: 12.5,
        note: 'chirps',
        revision: 1,
        recorded_at: FIRST,
        recorded_by: WRITER,
      },
      {
        source_id: OWN,
        location: 'farm-1/north',
        index: 'rainfall_mm',
        date: '2026-02-02',
        value: 0,
        note: null,
        revision: 1,
        recorded_at: FIRST,
        recorded_by: WRITER,
      },
    ]);
    expect(await revisions()).toEqual([]);
  });

  it('replaces a changed value as the next revision and keeps the earlier one', async () => {
    await record([rainfall('2026-02-01', 12.5, { note: 'gauge' }), rainfall('2026-02-02', 3)]);
    const outcome = await record(
      [rainfall('2026-02-01', 14.25, { note: 'gauge' }), rainfall('2026-02-02', 3), rainfall('2026-02-03', 1)],
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
      { date: '2026-02-01', revision: 1, value: 12.5, note: 'gauge', recorded_at: FIRST, replaced_at: SECOND },
    ]);

    await record([rainfall('2026-02-01', 9)], new Date('2026-03-03T00:00:00.000Z'));
    expect((await revisions()).map(({ revision, value }) => ({ revision, value }))).toEqual([
      { revision: 1, value: 12.5 },
      { revision: 2, value: 14.25 },
    ]);
    expect((await current())[0]).toMatchObject({ value: 9, revision: 3 });
  });

  it('counts an unchanged re-send as neither inserted nor updated and leaves it untouched', async () => {
    const readings = [rainfall('2026-02-01', 12.5, { note: 'gauge' }), rainfall('2026-02-02', 0.1)];
    await record(readings);
    const before = await current();
    expect(await record(readings, SECOND)).toEqual({ inserted: 0, updated: 0 });
    expect(await current()).toEqual(before);
    expect(await revisions()).toEqual([]);
  });

  it('treats a changed note as a new revision of the same value', async () => {
    await record([rainfall('2026-02-01', 5, { note: 'gauge' })]);
    expect(await record([rainfall('2026-02-01', 5)], SECOND)).toEqual({ inserted: 0, updated: 1 });
    expect(await revisions()).toMatchObject([{ revision: 1, value: 5, note: 'gauge' }]);
  });

  it('keeps each source and location its own series of revisions', async () => {
    const OTHER = 'organization-fields:org-2';
    const first = [
      rainfall('2026-02-01', 1),
      rainfall('2026-02-01', 10, { location: 'farm-1/south' }),
      rainfall('2026-02-01', 100, { sourceId: OTHER }),
    ];
    expect(await record(first)).toEqual({ inserted: 3, updated: 0 });
    // Only the other organization's reading of the north field changes.
    expect(
      await record([rainfall('2026-02-01', 1), rainfall('2026-02-01', 200, { sourceId: OTHER })], SECOND, 'provider-2'),
    ).toEqual({ inserted: 0, updated: 1 });
    const rows = await current();
    expect(rows.map(({ source_id, location, value, revision }) => ({ source_id, location, value, revision }))).toEqual([
      { source_id: OWN, location: 'farm-1/north', value: 1, revision: 1 },
      { source_id: OWN, location: 'farm-1/south', value: 10, revision: 1 },
      { source_id: OTHER, location: 'farm-1/north', value: 200, revision: 2 },
    ]);
    const kept = await db
      .selectFrom('index_reading_revisions')
      .select(['source_id', 'location', 'revision', 'value'])
      .execute();
    expect(kept).toEqual([{ source_id: OTHER, location: 'farm-1/north', revision: 1, value: 100 }]);
  });

  it('stores who recorded each reading, and keeps who recorded a replaced one with its revision', async () => {
    await record([rainfall('2026-02-01', 1), rainfall('2026-02-02', 2)], FIRST, 'provider-1');
    await record([rainfall('2026-02-01', 3), rainfall('2026-02-02', 2)], SECOND, 'operator-7');
    expect((await current()).map(({ date, recorded_by }) => ({ date, recorded_by }))).toEqual([
      // A changed reading is the new writer's; one re-sent unchanged stays the first writer's.
      { date: '2026-02-01', recorded_by: 'operator-7' },
      { date: '2026-02-02', recorded_by: 'provider-1' },
    ]);
    expect(
      await db.selectFrom('index_reading_revisions').select(['revision', 'value', 'recorded_by']).execute(),
    ).toEqual([{ revision: 1, value: 1, recorded_by: 'provider-1' }]);
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

  it('keeps every value when writers of one location race on a new key', async () => {
    const values = [1, 2, 3, 4, 5, 6];
    const outcomes = await Promise.all(values.map((value) => record([rainfall('2026-02-01', value)])));
    expect(outcomes.reduce((sum, { inserted }) => sum + inserted, 0)).toBe(1);
    expect(outcomes.reduce((sum, { updated }) => sum + updated, 0)).toBe(5);
    const [row] = await current();
    expect(row?.revision).toBe(6);
    const kept = [...(await revisions()).map(({ value }) => value), row?.value];
    expect(kept.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(values);
  });

  it('upserts 10,000 readings in one call, then updates every one of them', async () => {
    const readings = Array.from({ length: 10_000 }, (_, day) =>
      rainfall(new Date(Date.UTC(1996, 0, 1 + day)).toISOString().slice(0, 10), (day % 300) / 10),
    );
    expect(await record(readings)).toEqual({ inserted: 10_000, updated: 0 });
    expect(
      await record(
        readings.map((reading) => ({ ...reading, value: reading.value + 1 })),
        SECOND,
      ),
    ).toEqual({
      inserted: 0,
      updated: 10_000,
    });
  });

  it('records a file of 20,000 cells in one transaction: its locks are per bucket, not per cell', async () => {
    // One lock per series filled PostgreSQL's shared lock table (max_locks_per_transaction × connections,
    // about 6,400 here): "out of shared memory" for a CHIRPS-sized file's cells of interest.
    const cells = Array.from({ length: 20_000 }, (_, at) => rainfall('2026-02-01', 1, { location: `cell-${at}` }));
    expect(await record(cells)).toEqual({ inserted: 20_000, updated: 0 });
  });
});
