import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA.md §5 acceptance 1, 2 and 6 through `npm start`: GeoTIFFs made by gdal_translate, read back
// through the API and compared with gdallocationinfo's pixels.

const suite = serviceUnderTest('e2e_index_files');
const { api } = suite;
const provider: Caller = { sub: 'chirps-feed', org: 'org-chg', roles: ['data_provider'] };
const work = mkdtempSync(join(tmpdir(), 'e2e-index-files-'));

/** 4 × 3 cells of 0.25° from (−2, 30), one band per row set, deflate-compressed and tiled. */
const geotiff = (name: string, bands: readonly (readonly string[])[]): string => {
  const inputs = bands.map((rows, at) => {
    const path = join(work, `${name}-${at}.asc`);
    writeFileSync(
      path,
      `ncols 4\nnrows 3\nxllcorner 30.0\nyllcorner -2.0\ncellsize 0.25\nNODATA_value -9999\n${rows.join('\n')}\n`,
    );
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
const DAY_1 = ['1.5 2.25 3.125 -9999', '4.0 5.5 6.25 7.0', '8.5 9.0 10.125 11.1'];
const DAY_2 = ['0 0.3 12.7 1', '2 3 4 5', '6 7 8 9'];

const upload = async (sourceId: string, query: string, body: Buffer, headers: Record<string, string> = {}) => {
  const response = await fetch(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor(provider)}`, 'content-type': 'image/tiff', ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};

const readingCount = async (sourceId: string): Promise<number> =>
  Number((await suite.query('select count(*) as n from index_readings where source_id = $1', [sourceId])).rows[0]?.n);

describe('producers’ files through POST /insurance/index-sources/{id}/files', () => {
  let sourceId: string;
  beforeAll(async () => {
    const registered = await api.post('/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'CHIRPS 0.25',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
      unit: 'mm',
      product: { name: 'CHIRPS', version: '2.0' },
    });
    expect(registered.status).toBe(201);
    sourceId = registered.body.source_id;
  });

  it('1: every value reported for a cell of a multi-band GeoTIFF is the pixel gdallocationinfo reads', async () => {
    const tif = geotiff('days', [DAY_1, DAY_2]);
    const posted = await upload(sourceId, 'dates=2024-03-01,2024-03-02&label=prelim', gzipSync(readFileSync(tif)), {
      'content-encoding': 'gzip',
    });
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({
      status: 'succeeded',
      periods: 2,
      locations: 12,
      readings_written: 23,
      missing: 1,
    });
    expect((await api.get(posted.headers.get('location')!, provider)).body).toEqual(posted.body);
    for (const [row, lat] of [-1.375, -1.625, -1.875].entries())
      for (const [column, lon] of [30.125, 30.375, 30.625, 30.875].entries()) {
        const cell = `${lat - 0.125},${lon - 0.125}`;
        const series = await api.get(`/insurance/index-readings?source_id=${sourceId}&location=${cell}`, provider);
        for (const [band, date] of ['2024-03-01', '2024-03-02'].entries()) {
          const pixel = execFileSync('gdallocationinfo', [
            '-valonly',
            '-b',
            String(band + 1),
            '-geoloc',
            tif,
            `${lon}`,
            `${lat}`,
          ])
            .toString()
            .trim();
          const reported = series.body.items.find((item: { date: string }) => item.date === date);
          if (pixel === '-9999') expect(reported, `${cell} ${date}`).toBeUndefined();
          else
            expect(reported?.value, `${cell} ${date} (row ${row}, column ${column})`).toBe(
              Number(Number(pixel).toFixed(6)),
            );
        }
      }
  });

  it('2: the same file again writes nothing; one value changed writes exactly one labelled revision', async () => {
    const before = await readingCount(sourceId);
    const again = await upload(
      sourceId,
      'dates=2024-03-01,2024-03-02&label=prelim',
      readFileSync(join(work, 'days.tif')),
    );
    expect(again.status).toBe(200);
    expect(await readingCount(sourceId)).toBe(before);
    const final = geotiff('final', [DAY_1.map((row, at) => (at === 1 ? row.replace('5.5', '5.75') : row)), DAY_2]);
    const revised = await upload(sourceId, 'dates=2024-03-01,2024-03-02&label=final', readFileSync(final));
    expect(revised.body).toMatchObject({ status: 'succeeded', readings_written: 0, revisions_written: 1 });
    const revisions = await suite.query('select label from index_reading_revisions where source_id = $1', [sourceId]);
    expect(revisions.rows).toEqual([{ label: 'prelim' }]);
    const current = await suite.query('select value, label from index_readings where source_id = $1 and revision = 2', [
      sourceId,
    ]);
    expect(current.rows).toEqual([{ value: 5.75, label: 'final' }]);
  });

  it('6: a bad file gets a clear 4xx, nothing is written, and the service still answers', async () => {
    const before = await readingCount(sourceId);
    const hot = geotiff('hot', [DAY_1.map((row, at) => (at === 2 ? row.replace('8.5', '2500') : row))]);
    const outOfBounds = await upload(sourceId, 'date=2024-03-05', readFileSync(hot));
    expect(outOfBounds.status).toBe(422);
    expect(outOfBounds.body).toMatchObject({
      code: 'reading_out_of_bounds',
      errors: [{ path: '-2,30/2024-03-05', message: expect.stringContaining('2500') }],
    });
    const truncated = await upload(sourceId, 'date=2024-03-05', readFileSync(hot).subarray(0, 300));
    expect(truncated.body.code).toBe('unreadable_file');
    const fine = await api.post('/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'CHIRPS 0.05',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
    });
    const mismatch = await upload(fine.body.source_id, 'date=2024-03-05', readFileSync(hot));
    expect(mismatch).toMatchObject({ status: 422, body: { code: 'grid_mismatch' } });
    expect(mismatch.body.detail).toMatch(/0\.25.*0\.05/);
    const wrongType = await upload(sourceId, 'date=2024-03-05', readFileSync(hot), { 'content-type': 'image/png' });
    expect(wrongType.status).toBe(415);
    const huge = await fetch(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?date=2024-03-05`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenFor(provider)}`,
        'content-type': 'image/tiff',
        'content-length': String(2 * 1024 ** 3),
      },
      body: Buffer.alloc(10),
    }).catch(() => undefined);
    expect(huge === undefined || huge.status === 413).toBe(true);
    expect(await readingCount(sourceId)).toBe(before);
    expect((await api.get(`/insurance/index-sources/${sourceId}`, provider)).status).toBe(200);
  });
});
