import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegisteredIndexSource } from '@cropcover/domain';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, ProblemError } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestIndexFile } from '../index-files/ingest-index-file';
import { storeIndexFile } from '../index-files/stored-index-files';
import { setAreaOfInterest } from './area-of-interest';
import { historyBackfills } from './history-backfills';

// INDEX-DATA §2.2: a quote on a cell not yet held waits for its backfill within the configured time, or is
// told to come back (503 history_backfilling, Retry-After) while the backfill goes on.

const NOW = new Date('2026-03-01T06:00:00.000Z');
const work = mkdtempSync(join(tmpdir(), 'history-backfills-'));
const store = join(work, 'store');
const clock = { now: () => NOW };
const logger = createLogger({ level: 'silent', name: 'test' });

const grid: RegisteredIndexSource = {
  sourceId: 'src-chirps',
  organizationId: 'org-data',
  name: 'CHIRPS 0.25',
  index: 'rainfall_mm',
  kind: 'grid',
  stations: [],
  radiusKm: null,
  resolutionDeg: 0.25,
  unit: 'mm',
  currency: null,
  cadence: 'daily',
  sampling: 'cell',
  product: null,
  model: null,
  registeredAt: NOW.toISOString(),
};

/** 4 × 3 cells of 0.25° from (−2, 30), written by gdal_translate. */
const geotiff = (name: string, rows: readonly string[]): string => {
  const asc = join(work, `${name}.asc`);
  writeFileSync(
    asc,
    `ncols 4\nnrows 3\nxllcorner 30.0\nyllcorner -2.0\ncellsize 0.25\nNODATA_value -9999\n${rows.join('\n')}\n`,
  );
  const tif = join(work, `${name}.tif`);
  execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', asc, tif]);
  return tif;
};

describe('holding the history of a location of interest', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const readingsAt = async (cell: string) =>
    (await db.selectFrom('index_readings').select(['value', 'file_sha256']).where('location', '=', cell).execute()).map(
      (row) => row.value,
    );

  beforeAll(async () => {
    database = await createTestDatabase('history_backfills');
    db = createKysely<ReadModels>(createPool(database.url, logger));
    await migrateReadModels(db);
    const now = await setAreaOfInterest(db, historyBackfills(db, { directory: store, waitMs: 1000, clock, logger }), {
      source: grid,
      area: { cells: ['-1.9,30.1'] },
      setBy: 'feed',
      now: NOW,
    });
    expect(now.cells_of_interest).toBe(1);
    const file = await storeIndexFile(createReadStream(geotiff('day', ['1 2 3 4', '5 6 7 8', '9 10 11 12'])), store, {
      gzip: false,
      limitBytes: 1024 ** 3,
    });
    const { ingestion } = await ingestIndexFile(
      db,
      { source: grid, file, mediaType: 'image/tiff', dates: ['2024-03-01'], requestedBy: 'feed', now: NOW },
      { asJob: false, logger },
    );
    expect(ingestion).toMatchObject({ cells_kept: 'cells_of_interest', locations: 1, readings_written: 1 });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  it('given no time to wait, when a new cell is held, then 503 history_backfilling and the backfill goes on', async () => {
    const impatient = historyBackfills(db, { directory: store, waitMs: 0, clock, logger });
    const refusal = await impatient.hold(grid, ['-1.75,30.25']).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ProblemError);
    expect(refusal).toMatchObject({ status: 503, code: 'history_backfilling', headers: { 'Retry-After': '1' } });
    await expect.poll(() => readingsAt('-1.75,30.25'), { timeout: 30_000 }).toEqual([6]);
    // The retry finds it held.
    await expect(impatient.hold(grid, ['-1.75,30.25'])).resolves.toBeUndefined();
  });

  it('given time to wait, when two callers hold one new cell at once, then both get its history', async () => {
    const patient = historyBackfills(db, { directory: store, waitMs: 60_000, clock, logger });
    await Promise.all([patient.hold(grid, ['-1.5,30.75']), patient.hold(grid, ['-1.5,30.75'])]);
    expect(await readingsAt('-1.5,30.75')).toEqual([4]);
  });
});
