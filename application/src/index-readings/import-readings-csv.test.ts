import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexSourceRegistered } from '@cropcover/contracts';
import { indexSourceStream } from '@cropcover/domain';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { calendarDateOf, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CsvImporter, importReadingsCsv } from './import-readings-csv';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const HEADER = 'farm_id,field_id,index,date,value,source';
const SOURCE_HEADER = 'source_id,location,index,date,value,source';
const IMPORTER: CsvImporter = { subject: 'operator-1', organizationId: 'org-1' };
const OWN = 'organization-fields:org-1';
const STATION_SOURCE = '7d0c4c52-5b0e-4b8e-9d59-3f6f3b2f0a11';
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('importing readings from CSV', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  let eventStore: EventStore;
  let folder: string;
  let files = 0;
  const csv = (...lines: string[]): string => {
    const path = join(folder, `readings-${++files}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const stored = () =>
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
        'recorded_by',
      ])
      .orderBy('source_id')
      .orderBy('location')
      .orderBy('date')
      .orderBy('index')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase('import_readings');
    const pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateReadModels(db);
    await migrateEventStore(pool);
    eventStore = createPostgresEventStore({ pool });
    // A station source of another organization: the operator running the import may still write it.
    const registered: IndexSourceRegistered = {
      source_id: STATION_SOURCE,
      organization_id: 'org-met',
      name: 'Met stations',
      index: 'rainfall_mm',
      kind: 'station',
      stations: [
        { station_id: 'KE-0042', lat: -1.29, lon: 36.82 },
        { station_id: 'KE-0043', lat: -1.31, lon: 36.9 },
      ],
      radius_km: 25,
      resolution_deg: null,
      registered_by: 'provider-met',
      registered_at: '2026-01-01T00:00:00.000Z',
    };
    await eventStore.append(
      indexSourceStream(STATION_SOURCE),
      [
        {
          type: 'IndexSourceRegistered',
          data: registered,
          metadata: {
            event_id: randomUUID(),
            occurred_at: registered.registered_at,
            actor: 'provider-met',
            organization_id: 'org-met',
            correlation_id: randomUUID(),
            causation_id: null,
            schema_version: 1,
            platform_version: '0.0.0-test',
          },
        },
      ],
      'no_stream',
    );
    folder = mkdtempSync(join(tmpdir(), 'cropcover-readings-'));
  });
  afterAll(async () => {
    await eventStore?.close();
    await db?.destroy();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.deleteFrom('index_readings').execute();
    await db.deleteFrom('index_reading_revisions').execute();
  });

  it('imports every row in batches and reports what changed', async () => {
    const path = csv(
      HEADER,
      'farm-1,north,rainfall_mm,2026-01-01,12.5,"CHIRPS, v2"',
      'farm-1,north,rainfall_mm,2026-01-02,0,',
      'farm-1,north,ndvi,2026-01-01,-0.35,sentinel-2',
      '',
      'farm-1,north,wind_speed_ms,2026-03-01,18.25,',
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, path, NOW, { batchSize: 2 })).toEqual({
      status: 'imported',
      accepted: 4,
      inserted: 4,
      updated: 0,
    });
    expect(await stored()).toEqual(
      [
        { index: 'ndvi', date: '2026-01-01', value: -0.35, note: 'sentinel-2', revision: 1 },
        { index: 'rainfall_mm', date: '2026-01-01', value: 12.5, note: 'CHIRPS, v2', revision: 1 },
        { index: 'rainfall_mm', date: '2026-01-02', value: 0, note: null, revision: 1 },
        { index: 'wind_speed_ms', date: '2026-03-01', value: 18.25, note: null, revision: 1 },
      ].map((reading) => ({ source_id: OWN, location: 'farm-1/north', ...reading, recorded_by: 'operator-1' })),
    );

    const again = csv(
      HEADER,
      'farm-1,north,rainfall_mm,2026-01-01,13,"CHIRPS, v2"',
      'farm-1,north,rainfall_mm,2026-01-02,0,',
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, again, NOW)).toEqual({
      status: 'imported',
      accepted: 2,
      inserted: 0,
      updated: 1,
    });
  });

  it.each([
    ['the missing-value sentinel', 'farm-1,north,rainfall_mm,2026-01-03,-9999,', 'value'],
    ['an empty value', 'farm-1,north,rainfall_mm,2026-01-03,,', 'value'],
    ['a value that is not a number', 'farm-1,north,rainfall_mm,2026-01-03,NA,', 'value'],
    ['an unknown index', 'farm-1,north,soil_moisture,2026-01-03,0.2,', 'index'],
    ['an impossible date', 'farm-1,north,rainfall_mm,2026-02-30,1,', 'date'],
    ['a date after today', 'farm-1,north,rainfall_mm,2026-03-02,1,', 'date'],
    ['a missing column', 'farm-1,north,rainfall_mm,2026-01-03', ''],
  ])('refuses the whole file on %s, naming its line', async (_, badLine, path) => {
    const rows = Array.from({ length: 5 }, (__, day) => `farm-1,north,rainfall_mm,2025-12-${10 + day},${day},`);
    const file = csv(HEADER, ...rows, badLine, 'farm-1,north,rainfall_mm,2026-01-04,1,');
    const outcome = await importReadingsCsv(db, eventStore, IMPORTER, file, NOW, { batchSize: 2 });
    expect(outcome).toMatchObject({ status: 'refused', line: 7, errors: [{ path }] });
    expect(await stored()).toEqual([]);
  });

  it('refuses a key given twice, even in different batches', async () => {
    const file = csv(
      HEADER,
      'farm-1,north,rainfall_mm,2026-01-01,1,',
      'farm-1,north,rainfall_mm,2026-01-02,2,',
      'farm-1,north,rainfall_mm,2026-01-03,3,',
      'farm-1,north,rainfall_mm,2026-01-01,4,',
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, file, NOW, { batchSize: 2 })).toEqual({
      status: 'refused',
      line: 5,
      errors: [{ path: '', message: 'repeats the location, index and date of line 2' }],
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses a file without the header', async () => {
    expect(
      await importReadingsCsv(db, eventStore, IMPORTER, csv('farm-1,north,rainfall_mm,2026-01-01,1,'), NOW),
    ).toMatchObject({
      status: 'refused',
      line: 1,
    });
    expect(await importReadingsCsv(db, eventStore, IMPORTER, csv(''), NOW)).toMatchObject({
      status: 'refused',
      line: 1,
    });
    expect(await stored()).toEqual([]);
  });

  it('imports readings by source and location into a registered source, its index when left empty', async () => {
    const path = csv(
      SOURCE_HEADER,
      `${STATION_SOURCE},KE-0042,rainfall_mm,2026-01-01,12.5,gauge`,
      `${STATION_SOURCE},KE-0042,,2026-01-02,0,`,
      `${STATION_SOURCE},KE-0043,rainfall_mm,2026-01-01,3.25,`,
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, path, NOW, { batchSize: 2 })).toEqual({
      status: 'imported',
      accepted: 3,
      inserted: 3,
      updated: 0,
    });
    const reading = { source_id: STATION_SOURCE, index: 'rainfall_mm', revision: 1, recorded_by: 'operator-1' };
    expect(await stored()).toEqual([
      { ...reading, location: 'KE-0042', date: '2026-01-01', value: 12.5, note: 'gauge' },
      { ...reading, location: 'KE-0042', date: '2026-01-02', value: 0, note: null },
      { ...reading, location: 'KE-0043', date: '2026-01-01', value: 3.25, note: null },
    ]);
  });

  it('refuses readings per field when no organization is named, writing nothing', async () => {
    const file = csv(HEADER, 'farm-1,north,rainfall_mm,2026-01-01,1,');
    const outcome = await importReadingsCsv(db, eventStore, { subject: 'operator-1', organizationId: '' }, file, NOW);
    expect(outcome).toMatchObject({
      status: 'refused',
      line: 1,
      errors: [{ message: expect.stringMatching(/organization/) }],
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses the whole file on a location the source does not have, naming its line', async () => {
    const file = csv(
      SOURCE_HEADER,
      `${STATION_SOURCE},KE-0042,rainfall_mm,2026-01-01,1,`,
      `${STATION_SOURCE},KE-0042,rainfall_mm,2026-01-02,2,`,
      `${STATION_SOURCE},KE-0043,rainfall_mm,2026-01-01,3,`,
      `${STATION_SOURCE},KE-9999,rainfall_mm,2026-01-02,4,`,
      `${STATION_SOURCE},KE-0043,rainfall_mm,2026-01-03,5,`,
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, file, NOW, { batchSize: 2 })).toEqual({
      status: 'refused',
      line: 5,
      errors: [{ path: 'location', message: `"KE-9999" is not a location of index source ${STATION_SOURCE}` }],
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses a source that is not registered and an index the source does not hold, naming the line', async () => {
    const unknown = csv(
      SOURCE_HEADER,
      `${STATION_SOURCE},KE-0042,rainfall_mm,2026-01-01,1,`,
      `${randomUUID()},KE-0042,rainfall_mm,2026-01-01,1,`,
    );
    expect(await importReadingsCsv(db, eventStore, IMPORTER, unknown, NOW)).toMatchObject({
      status: 'refused',
      line: 3,
      errors: [{ path: 'source_id' }],
    });
    const wrongIndex = csv(SOURCE_HEADER, `${STATION_SOURCE},KE-0042,ndvi,2026-01-01,0.5,`);
    expect(await importReadingsCsv(db, eventStore, IMPORTER, wrongIndex, NOW)).toMatchObject({
      status: 'refused',
      line: 2,
      errors: [{ path: 'index' }],
    });
    expect(await stored()).toEqual([]);
  });

  // Two processes that each load TypeScript: on a loaded 2-core machine that alone can take 30 s.
  it('runs as a command against DATABASE_URL', { timeout: 120_000 }, () => {
    const cli = 'service/src/cli/import-readings.ts';
    const run = (file: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', cli, '--organization', 'org-1', file], {
        cwd: repositoryRoot,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
    const good = run(csv(HEADER, 'farm-1,north,rainfall_mm,2020-01-01,4.5,gauge'));
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('1 readings accepted: 1 inserted, 0 updated, 0 unchanged');
    const bad = run(csv(HEADER, 'farm-1,north,rainfall_mm,2020-01-02,4.5,', 'farm-1,north,ndvi,2020-01-02,2,'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/readings-\d+\.csv:3: value: ndvi must be from -1 to 1/);
    expect(bad.stderr).toContain('nothing was imported');
  });
});
