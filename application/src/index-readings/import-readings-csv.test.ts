import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calendarDateOf, migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importReadingsCsv } from './import-readings-csv';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const HEADER = 'farm_id,field_id,index,date,value,source';
const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('importing readings from CSV', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
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
      .select((eb) => ['index', calendarDateOf(eb.ref('date')).as('date'), 'value', 'source', 'revision'])
      .orderBy('date')
      .orderBy('index')
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase('import_readings');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateReadModels(db);
    folder = mkdtempSync(join(tmpdir(), 'cropcover-readings-'));
  });
  afterAll(async () => {
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
    expect(await importReadingsCsv(db, path, NOW, { batchSize: 2 })).toEqual({
      status: 'imported',
      accepted: 4,
      inserted: 4,
      updated: 0,
    });
    expect(await stored()).toEqual([
      { index: 'ndvi', date: '2026-01-01', value: -0.35, source: 'sentinel-2', revision: 1 },
      { index: 'rainfall_mm', date: '2026-01-01', value: 12.5, source: 'CHIRPS, v2', revision: 1 },
      { index: 'rainfall_mm', date: '2026-01-02', value: 0, source: null, revision: 1 },
      { index: 'wind_speed_ms', date: '2026-03-01', value: 18.25, source: null, revision: 1 },
    ]);

    const again = csv(
      HEADER,
      'farm-1,north,rainfall_mm,2026-01-01,13,"CHIRPS, v2"',
      'farm-1,north,rainfall_mm,2026-01-02,0,',
    );
    expect(await importReadingsCsv(db, again, NOW)).toEqual({
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
    const outcome = await importReadingsCsv(db, file, NOW, { batchSize: 2 });
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
    expect(await importReadingsCsv(db, file, NOW, { batchSize: 2 })).toEqual({
      status: 'refused',
      line: 5,
      errors: [{ path: '', message: 'repeats the farm_id, field_id, index and date of line 2' }],
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses a file without the header', async () => {
    expect(await importReadingsCsv(db, csv('farm-1,north,rainfall_mm,2026-01-01,1,'), NOW)).toMatchObject({
      status: 'refused',
      line: 1,
    });
    expect(await importReadingsCsv(db, csv(''), NOW)).toMatchObject({ status: 'refused', line: 1 });
    expect(await stored()).toEqual([]);
  });

  it('runs as a command against DATABASE_URL', () => {
    const cli = 'service/src/cli/import-readings.ts';
    const run = (file: string) =>
      spawnSync('npx', ['tsx', cli, file], {
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
