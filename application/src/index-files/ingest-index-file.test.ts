import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadingsProvenance } from '@cropcover/contracts';
import { originDigest, type RegisteredIndexSource, readingsUsedOf } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import {
  calendarDateOf,
  loadIndexFileIngestion,
  loadReadingHistory,
  loadSeriesReadings,
  migrateReadModels,
  type ReadModels,
} from '@cropcover/read-store';
import { createKysely, createLogger, createPool, ProblemError } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkEvaluationDigests } from '../audit/evaluation-digests';
import { type IndexFileRequest, ingestIndexFile } from './ingest-index-file';
import { storeIndexFile } from './stored-index-files';

// Fixtures made by the producers' own tools (Debian's gdal-bin and netcdf-bin), and GDAL as the
// independent reader of the values we store.

const NOW = new Date('2026-03-01T06:00:00.000Z');
const work = mkdtempSync(join(tmpdir(), 'index-files-'));
const store = join(work, 'store');

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
  product: { name: 'CHIRPS', version: '2.0' },
  model: null,
  registeredAt: NOW.toISOString(),
};

/** An Esri ASCII grid of 4 × 3 cells of 0.25° from (−2, 30), rows north to south. */
const asciiGrid = (rows: readonly string[]): string =>
  `ncols 4\nnrows 3\nxllcorner 30.0\nyllcorner -2.0\ncellsize 0.25\nNODATA_value -9999\n${rows.join('\n')}\n`;

/** A two-band deflate-compressed tiled GeoTIFF, written by gdal_translate. */
const geotiff = (name: string, bands: readonly (readonly string[])[]): string => {
  const inputs = bands.map((rows, at) => {
    const path = join(work, `${name}-${at}.asc`);
    writeFileSync(path, asciiGrid(rows));
    return path;
  });
  const vrt = join(work, `${name}.vrt`);
  const tif = join(work, `${name}.tif`);
  execFileSync('gdalbuildvrt', ['-q', '-separate', vrt, ...inputs]);
  execFileSync('gdal_translate', [
    '-q',
    '-a_srs',
    'EPSG:4326',
    '-co',
    'COMPRESS=DEFLATE',
    '-co',
    'TILED=YES',
    vrt,
    tif,
  ]);
  return tif;
};

const sha256Digest = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const BAND_1 = ['1.5 2.25 3.125 -9999', '4.0 5.5 6.25 7.0', '8.5 9.0 10.125 11.1'];
const BAND_2 = ['0 0.3 12.7 1', '2 3 4 5', '6 7 8 9'];

/** GDAL's value of a pixel of a band at a point. */
const gdalValue = (tif: string, band: number, lon: number, lat: number): string =>
  execFileSync('gdallocationinfo', ['-valonly', '-b', String(band), '-geoloc', tif, String(lon), String(lat)])
    .toString()
    .trim();

describe('ingesting a producer’s file into a source', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const logger = createLogger({ level: 'silent', name: 'test' });
  const ingest = async (path: string, request: Partial<IndexFileRequest>) => {
    const file = await storeIndexFile(createReadStream(path), store, { gzip: false, limitBytes: 1024 ** 3 });
    return ingestIndexFile(
      db,
      { source: grid, file, mediaType: 'image/tiff', requestedBy: 'feed', now: NOW, ...request },
      { asJob: false, logger },
    );
  };
  const readings = () =>
    db
      .selectFrom('index_readings')
      .select((eb) => [
        'location',
        calendarDateOf(eb.ref('date')).as('date'),
        'value',
        'revision',
        'label',
        'file_sha256',
      ])
      .orderBy('date')
      .orderBy('location')
      .execute();
  const count = async (table: 'index_readings' | 'index_reading_revisions' | 'index_file_ingestions') =>
    Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const counts = async () => ({
    readings: await count('index_readings'),
    revisions: await count('index_reading_revisions'),
    ingestions: await count('index_file_ingestions'),
  });

  beforeAll(async () => {
    database = await createTestDatabase('index_files');
    db = createKysely<ReadModels>(createPool(database.url, logger));
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('index_readings').execute();
    await db.deleteFrom('index_reading_revisions').execute();
    await db.deleteFrom('index_file_ingestions').execute();
  });

  it('stores every pixel of a multi-band GeoTIFF under its cell, as GDAL reads it; nodata is missing', async () => {
    const tif = geotiff('two-days', [BAND_1, BAND_2]);
    const { ingestion, unchanged } = await ingest(tif, { dates: ['2024-03-01', '2024-03-02'], label: 'prelim' });
    expect(unchanged).toBe(false);
    expect(ingestion).toMatchObject({
      status: 'succeeded',
      periods: 2,
      locations: 12,
      readings_written: 23,
      missing: 1,
    });
    const stored = await readings();
    const sha = readFileSync(tif);
    expect(stored.every((reading) => reading.label === 'prelim' && reading.file_sha256 === ingestion.sha256)).toBe(
      true,
    );
    expect(sha.length).toBe(ingestion.bytes);
    // Cell "-1.75,30.25" is the second column of the middle row; its centre is (−1.625, 30.375).
    const cell = (date: string, location: string) =>
      stored.find((reading) => reading.date === date && reading.location === location)?.value;
    expect(String(cell('2024-03-01', '-1.75,30.25'))).toBe(gdalValue(tif, 1, 30.375, -1.625));
    expect(String(cell('2024-03-01', '-1.5,30.5'))).toBe('3.125');
    expect(cell('2024-03-01', '-1.5,30.75')).toBeUndefined();
    // 11.1 as a float32 is 11.100000381…: kept at 6 decimals, as GDAL's value rounds.
    expect(cell('2024-03-01', '-2,30.75')).toBe(Number(Number(gdalValue(tif, 1, 30.875, -1.875)).toFixed(6)));
    expect(cell('2024-03-02', '-1.5,30.25')).toBe(0.3);
  });

  it('answers the same bytes with the first ingestion, and a changed value with one labelled revision', async () => {
    const first = await ingest(geotiff('prelim', [BAND_1]), { dates: ['2024-03-01'], label: 'prelim' });
    const again = await ingest(join(work, 'prelim.tif'), { dates: ['2024-03-01'], label: 'prelim' });
    expect(again).toEqual({ ingestion: first.ingestion, unchanged: true });
    const changed = BAND_1.map((row, at) => (at === 1 ? row.replace('5.5', '5.75') : row));
    const final = await ingest(geotiff('final', [changed]), { dates: ['2024-03-01'], label: 'final' });
    expect(final.ingestion).toMatchObject({ readings_written: 0, revisions_written: 1 });
    const revised = (await readings()).filter((reading) => reading.revision === 2);
    expect(revised).toEqual([
      expect.objectContaining({
        location: '-1.75,30.25',
        value: 5.75,
        label: 'final',
        file_sha256: final.ingestion.sha256,
      }),
    ]);
    const kept = await db.selectFrom('index_reading_revisions').select(['value', 'label']).execute();
    expect(kept).toEqual([{ value: 5.5, label: 'prelim' }]);
  });

  // INDEX-DATA §4: what an evaluation reads of a value from a file names the file and its release, from
  // the store's current readings (evaluation) and from the revisions kept (the audit's as-evaluated check).
  it('carries each value’s label and file SHA-256 into provenance, and a final release moves it', async () => {
    const cell = {
      source_id: grid.sourceId,
      kind: 'grid' as const,
      index: 'rainfall_mm' as const,
      location: '-1.75,30.25',
    };
    const provenance = async () => {
      const history = await loadReadingHistory(db, { sources: { drought: cell } });
      return readingsUsedOf('chirps@1#drought', history.drought ?? [], '2024-03-01', '2024-03-02');
    };
    const prelim = await ingest(geotiff('origin-prelim', [BAND_1, BAND_2]), {
      dates: ['2024-03-01', '2024-03-02'],
      label: 'prelim',
    });
    const before = await provenance();
    expect(before).toMatchObject({
      readings_used: 2,
      files: [{ sha256: prelim.ingestion.sha256, label: 'prelim', values: 2 }],
    });
    expect(before.origin_digest).toBe(
      sha256Digest(
        `2024-03-01,5.5,1,prelim,${prelim.ingestion.sha256}\n2024-03-02,3,1,prelim,${prelim.ingestion.sha256}\n`,
      ),
    );

    // The final release changes the second day's value only: that value now comes from it.
    const changed = BAND_2.map((row, at) => (at === 1 ? row.replace('2 3', '2 3.5') : row));
    const final = await ingest(geotiff('origin-final', [BAND_1, changed]), {
      dates: ['2024-03-01', '2024-03-02'],
      label: 'final',
      now: new Date(NOW.getTime() + 3_600_000),
    });
    expect(final.ingestion).toMatchObject({ revisions_written: 1 });
    const after = await provenance();
    expect(after.files).toEqual([
      { sha256: prelim.ingestion.sha256, label: 'prelim', values: 1 },
      { sha256: final.ingestion.sha256, label: 'final', values: 1 },
    ]);
    expect(after.origin_digest).toBe(
      sha256Digest(
        `2024-03-01,5.5,1,prelim,${prelim.ingestion.sha256}\n2024-03-02,3.5,2,final,${final.ingestion.sha256}\n`,
      ),
    );

    // The audit reads the same origins, now and as they stood before the final release.
    const series = { sourceId: grid.sourceId, location: cell.location, index: cell.index };
    const range = { from: '2024-03-01', to: '2024-03-02' };
    expect(originDigest(await loadSeriesReadings(db, { ...series, ...range }))).toBe(after.origin_digest);
    expect(originDigest(await loadSeriesReadings(db, { ...series, ...range, asOf: NOW }))).toBe(before.origin_digest);

    // The audit checks both digests: an evaluation of the preliminary values reproduces as the values stood
    // then, not now; one whose origin_digest names another file does not, though its digest still matches.
    const evaluated = (provenance: ReadingsProvenance): RecordedEvent => ({
      type: 'TriggerEvaluated',
      streamId: 'policy-p1',
      revision: 3,
      position: { commit: 1n, prepare: 1n },
      metadata: {
        event_id: 'e-1',
        occurred_at: NOW.toISOString(),
        actor: 'system:monitor',
        organization_id: 'org-ins',
        correlation_id: 'c-1',
        causation_id: null,
        schema_version: 1,
        platform_version: '1.0.0',
      },
      data: {
        policy_id: 'p1',
        evaluation_id: 'ev-1',
        peril: 'drought',
        trigger_index: 'cumulative_rainfall_mm',
        as_of: '2024-03-02',
        window_start: '2024-03-01',
        window_end: '2024-03-02',
        observed_value: 8.5,
        readings_used: 2,
        provenance,
        threshold: 20,
        comparison: 'lte',
        breached: true,
        severity: 1,
        evaluated_at: new Date(NOW.getTime() + 60_000).toISOString(),
      },
    });
    const asRecorded = { ...cell, ...before };
    const [honest] = await checkEvaluationDigests(db, [evaluated(asRecorded)]);
    expect(honest).toMatchObject({ matchesCurrent: false, matchesAsEvaluated: true });
    const otherFile = sha256Digest(
      `2024-03-01,5.5,1,prelim,${final.ingestion.sha256}\n2024-03-02,3,1,prelim,${prelim.ingestion.sha256}\n`,
    );
    const [forged] = await checkEvaluationDigests(db, [evaluated({ ...asRecorded, origin_digest: otherFile })]);
    expect(forged).toMatchObject({ matchesCurrent: false, matchesAsEvaluated: false });
    // One recorded before origins were is checked on its digest alone.
    const { origin_digest: _, files: __, ...older } = asRecorded;
    expect((await checkEvaluationDigests(db, [evaluated(older)]))[0]?.matchesAsEvaluated).toBe(true);

    // A bilinear point has no series of its own: the audit combines its cells as the evaluation did.
    const point = {
      ...cell,
      location: '-1.7,30.3',
      sampling: { method: 'bilinear' as const, point: { lat: -1.7, lon: 30.3 }, resolution_deg: 0.25 },
    };
    const sampled = await loadReadingHistory(db, { sources: { drought: point } });
    const used = readingsUsedOf('chirps@1#drought', sampled.drought ?? [], '2024-03-01', '2024-03-02');
    expect(used.readings_used).toBe(2);
    // Digested from today's values (the final release), which came after the evaluation's instant.
    const [bilinear] = await checkEvaluationDigests(db, [evaluated({ ...point, ...used })]);
    expect(bilinear).toMatchObject({ matchesCurrent: true, matchesAsEvaluated: false });
  });

  it('reads a NetCDF-4 made by ncgen: CF time, lat/lon, a _FillValue hole that is missing, never 0', async () => {
    const cdl = join(work, 'precip.cdl');
    writeFileSync(
      cdl,
      `netcdf precip {
dimensions: time = 2 ; lat = 3 ; lon = 4 ;
variables:
  double time(time) ; time:units = "hours since 2024-03-01 00:00:00" ;
  float lat(lat) ; float lon(lon) ;
  float precip(time, lat, lon) ; precip:_FillValue = -1.f ;
data:
  time = 0, 24 ;
  lat = -1.875, -1.625, -1.375 ;
  lon = 30.125, 30.375, 30.625, 30.875 ;
  precip = 1, 2, 3, 4, 5, _, 7, 8, 9, 10, 11, 12,  0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 ;
}`,
    );
    const nc = join(work, 'precip.nc');
    execFileSync('ncgen', ['-4', '-o', nc, cdl]);
    const { ingestion } = await ingest(nc, { mediaType: 'application/x-netcdf', variable: 'precip' });
    expect(ingestion).toMatchObject({ periods: 2, locations: 12, readings_written: 23, missing: 1 });
    const stored = await readings();
    // lat runs south to north here: the first row of data is the southernmost.
    expect(stored.find((r) => r.date === '2024-03-01' && r.location === '-2,30')?.value).toBe(1);
    expect(stored.find((r) => r.date === '2024-03-01' && r.location === '-1.5,30.75')?.value).toBe(12);
    expect(stored.find((r) => r.date === '2024-03-01' && r.location === '-1.75,30.25')).toBeUndefined();
    await expect(ingest(nc, { mediaType: 'application/x-netcdf', variable: 'tmax' })).resolves.toMatchObject({
      unchanged: true,
    });
  });

  it('refuses a whole file for one value out of bounds, a wrong grid, an unknown variable or a truncated file; nothing is written', async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (error instanceof ProblemError ? { status: error.status, code: error.code } : error),
      );
    const hot = geotiff('hot', [BAND_1.map((row, at) => (at === 2 ? row.replace('8.5', '2500') : row))]);
    await expect(refusal(ingest(hot, { dates: ['2024-03-01'] }))).resolves.toEqual({
      status: 422,
      code: 'reading_out_of_bounds',
    });
    await expect(
      refusal(ingest(hot, { dates: ['2024-03-01'], source: { ...grid, resolutionDeg: 0.05 } })),
    ).resolves.toEqual({
      status: 422,
      code: 'grid_mismatch',
    });
    const truncated = join(work, 'truncated.tif');
    writeFileSync(truncated, readFileSync(join(work, 'two-days.tif')).subarray(0, 400));
    await expect(refusal(ingest(truncated, { dates: ['2024-03-01', '2024-03-02'] }))).resolves.toEqual({
      status: 422,
      code: 'unreadable_file',
    });
    await expect(
      refusal(ingest(join(work, 'precip.nc'), { mediaType: 'application/x-netcdf', variable: 'tmax' })),
    ).resolves.toEqual({ status: 422, code: 'unknown_variable' });
    expect(await counts()).toEqual({ readings: 0, revisions: 0, ingestions: 0 });
  });

  it('keeps none of the bytes of a file it refuses, at once or as a job, and no other file held', async () => {
    const held = async () => (await readdir(store)).sort();
    const finished = async (ingestionId: string) => {
      for (let tries = 0; tries < 200; tries += 1) {
        const ingestion = await loadIndexFileIngestion(db, grid.sourceId, ingestionId);
        if (ingestion?.status === 'failed' || ingestion?.status === 'succeeded') return ingestion;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`ingestion ${ingestionId} did not finish`);
    };
    const kept = await ingest(geotiff('kept', [BAND_2]), { dates: ['2024-04-01'] });
    expect(kept.ingestion.status).toBe('succeeded');
    const before = await held();
    expect(before).toContain(kept.ingestion.sha256);

    const cold = geotiff('cold', [BAND_2.map((row) => row.replace('12.7', '-40'))]);
    await expect(ingest(cold, { dates: ['2024-04-02'] })).rejects.toMatchObject({ code: 'reading_out_of_bounds' });
    expect(await held()).toEqual(before);

    const file = await storeIndexFile(createReadStream(cold), store, { gzip: false, limitBytes: 1024 ** 3 });
    const job = await ingestIndexFile(
      db,
      { source: grid, file, mediaType: 'image/tiff', dates: ['2024-04-02'], requestedBy: 'feed', now: NOW },
      { asJob: true, logger },
    );
    expect(await finished(job.ingestion.ingestion_id)).toMatchObject({
      status: 'failed',
      error: { code: 'reading_out_of_bounds' },
    });
    expect(await held()).toEqual(before);

    // The same bytes refused for another source (a finer grid): the file held for the first stays.
    await expect(
      ingest(join(work, 'kept.tif'), {
        dates: ['2024-04-01'],
        source: { ...grid, sourceId: 'src-finer', resolutionDeg: 0.05 },
      }),
    ).rejects.toMatchObject({ code: 'grid_mismatch' });
    expect(await held()).toEqual(before);
  });

  it('reads a wide CSV, one column per location, empty and −9999 cells missing', async () => {
    const csv = join(work, 'wide.csv');
    writeFileSync(csv, 'date,"-1.375,30.375","-1.875,30.125"\n2024-03-01,4.5,\n2024-03-02,-9999,0\n');
    const { ingestion } = await ingest(csv, { mediaType: 'text/csv' });
    expect(ingestion).toMatchObject({ periods: 2, locations: 2, readings_written: 2, missing: 2 });
    expect((await readings()).map((r) => [r.location, r.date, r.value])).toEqual([
      ['-1.5,30.25', '2024-03-01', 4.5],
      ['-2,30', '2024-03-02', 0],
    ]);
  });
});
