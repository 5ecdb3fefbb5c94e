import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA.md §2.2 and §5 acceptance 5 through `npm start`: a grid source with locations of interest
// keeps only their cells from a GeoTIFF made by gdal_translate, and a policy on a cell first seen after
// the files were ingested reads its whole history from the kept files, exactly as an ingestion that kept
// every cell wrote it.

const suite = serviceUnderTest('e2e_locations_of_interest', { MONITOR_ENABLED: 'false' });
const { api } = suite;
const provider: Caller = { sub: 'chirps-feed', org: 'org-chg', roles: ['data_provider'] };
const rival: Caller = { sub: 'rival-feed', org: 'org-rival', roles: ['data_provider'] };
const insurer: Caller = { sub: 'underwriter', org: 'org-chg', roles: ['insurer'] };
const owner: Caller = { sub: `farmer-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };
const work = mkdtempSync(join(tmpdir(), 'e2e-locations-of-interest-'));

/** 4 × 3 cells of 0.25° from (−2, 30) (north-west corner (−1.25, 30)), one band per day. */
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
  execFileSync('gdal_translate', ['-q', '-a_srs', 'EPSG:4326', '-co', 'COMPRESS=DEFLATE', vrt, tif]);
  return tif;
};
const DAY_1 = ['1.5 2.25 3.125 -9999', '4.0 5.5 6.25 7.0', '8.5 9.0 10.125 11.1'];
const DAY_2 = ['0 0.3 12.7 1', '2 3 4 5', '6 7 8 9'];
/** The final release: the cell (−1.75, 30.25), second row and column, revised on the first day. */
const FINAL_DAY_1 = DAY_1.map((row, at) => (at === 1 ? row.replace('5.5', '5.75') : row));

const upload = async (sourceId: string, query: string, file: string) => {
  const response = await fetch(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor(provider)}`, 'content-type': 'image/tiff' },
    body: readFileSync(file),
  });
  return { status: response.status, body: (await response.json()) as any };
};

const registerGrid = async (name: string): Promise<string> => {
  const registered = await api.post('/insurance/index-sources', provider, {
    kind: 'grid',
    name,
    index: 'rainfall_mm',
    resolution_deg: 0.25,
    unit: 'mm',
  });
  expect(registered.status).toBe(201);
  return registered.body.source_id;
};

const setArea = (sourceId: string, caller: Caller, body: unknown) =>
  api.request('PATCH', `/insurance/index-sources/${sourceId}`, { caller, body });

/** What the source holds for a cell: current readings and their revisions, as stored. */
const history = async (sourceId: string, cell: string) => ({
  readings: (
    await suite.query(
      `select date::text, value, revision, label, file_sha256 from index_readings
       where source_id = $1 and location = $2 order by date`,
      [sourceId, cell],
    )
  ).rows,
  revisions: (
    await suite.query(
      `select date::text, value, revision, label, file_sha256 from index_reading_revisions
       where source_id = $1 and location = $2 order by date, revision`,
      [sourceId, cell],
    )
  ).rows,
});

const readingCount = async (sourceId: string): Promise<number> =>
  Number((await suite.query('select count(*) as n from index_readings where source_id = $1', [sourceId])).rows[0]?.n);

describe('locations of interest and backfill (INDEX-DATA §2.2)', () => {
  let kept: string;
  let whole: string;
  const prelim = () => geotiff('prelim', [DAY_1, DAY_2]);
  const final = () => geotiff('final', [FINAL_DAY_1, DAY_2]);
  beforeAll(async () => {
    kept = await registerGrid('CHIRPS 0.25, kept by interest');
    // The same files into a source with no location of interest: what an ingestion of every cell writes.
    whole = await registerGrid('CHIRPS 0.25, every cell');
  });

  it('refuses a bad area with a clear 4xx and changes nothing', async () => {
    const backwards = await setArea(kept, provider, { area_of_interest: { bbox: [31, -2, 30, -1] } });
    expect(backwards.status).toBe(400);
    const both = await setArea(kept, provider, { area_of_interest: { bbox: [30, -2, 31, -1], cells: ['-1.9,30.1'] } });
    expect(both.status).toBe(400);
    const notAPoint = await setArea(kept, provider, { area_of_interest: { cells: ['somewhere'] } });
    expect(notAPoint.status).toBe(400);
    const huge = await setArea(kept, provider, { area_of_interest: { bbox: [-180, -90, 180, 90] } });
    expect(huge.status).toBe(422);
    expect(huge.body.code).toBe('area_of_interest_too_large');
    const theirs = await setArea(kept, rival, { area_of_interest: { cells: ['-1.9,30.1'] } });
    expect(theirs.status).toBe(403);
    const unknown = await setArea('no-such-source', provider, { area_of_interest: { cells: ['-1.9,30.1'] } });
    expect(unknown.status).toBe(404);
    const held = await suite.query(
      `select (select count(*)::int from index_cells_of_interest) as cells,
              (select count(*)::int from index_source_areas_of_interest) as areas`,
    );
    expect(held.rows).toEqual([{ cells: 0, areas: 0 }]);
  });

  it('a file ingested for a source with locations of interest writes only those cells', async () => {
    const area = await setArea(kept, provider, { area_of_interest: { cells: ['-1.9,30.1'] } });
    expect(area.status).toBe(200);
    expect(area.body).toMatchObject({ source_id: kept, cells_of_interest: 1 });
    const first = await upload(kept, 'dates=2024-03-01,2024-03-02&label=prelim', prelim());
    expect(first.body).toMatchObject({
      status: 'succeeded',
      cells_kept: 'cells_of_interest',
      periods: 2,
      locations: 1,
      readings_written: 2,
      missing: 0,
    });
    expect((await api.get(`/insurance/index-sources/${kept}/files/${first.body.ingestion_id}`, provider)).body).toEqual(
      first.body,
    );
    const second = await upload(kept, 'dates=2024-03-01,2024-03-02&label=final', final());
    expect(second.body).toMatchObject({ status: 'succeeded', locations: 1, readings_written: 0, revisions_written: 0 });
    expect(await readingCount(kept)).toBe(2);

    const everyCell = await upload(whole, 'dates=2024-03-01,2024-03-02&label=prelim', prelim());
    expect(everyCell.body).toMatchObject({ cells_kept: 'every_cell', locations: 12, readings_written: 23 });
    await upload(whole, 'dates=2024-03-01,2024-03-02&label=final', final());
  });

  it('5: a new policy on a cell first seen after ingestion reads its full history from the kept files', async () => {
    const cell = '-1.75,30.25';
    expect((await history(kept, cell)).readings).toEqual([]);
    const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
    expect(farm.status).toBe(201);
    await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
    const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: 'plot-1',
      name: 'Plot',
      area_ha: 1.5,
      location: { lat: -1.6, lon: 30.4 },
    });
    expect(field.status).toBe(201);
    const policy = await api.post('/insurance/policies', insurer, {
      farm_id: farm.body.farm_id,
      field_id: 'plot-1',
      perils: ['drought'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
      data_sources: { drought: kept },
    });
    expect(policy.status).toBe(201);
    expect(policy.body.triggers[0].data_source).toMatchObject({ source_id: kept, location: cell });

    const backfilled = await history(kept, cell);
    expect(backfilled.readings.map(({ date, value, label }) => ({ date, value, label }))).toEqual([
      { date: '2024-03-01', value: 5.75, label: 'final' },
      { date: '2024-03-02', value: 3, label: 'prelim' },
    ]);
    // Value for value, revision for revision, label and file digest: what the ingestion of every cell wrote.
    expect(backfilled).toEqual(await history(whole, cell));
    const series = await api.get(`/insurance/index-readings?source_id=${kept}&location=${cell}`, provider);
    expect(series.body.items.map((item: { value: number }) => item.value)).toEqual([5.75, 3]);
    // The cell is now of interest: the next file keeps it too.
    const next = await upload(kept, 'date=2024-03-03&label=prelim', geotiff('day3', [DAY_2]));
    expect(next.body).toMatchObject({ cells_kept: 'cells_of_interest', locations: 2, readings_written: 2 });
  });

  it('an area that grows is backfilled from the kept files in the background', async () => {
    const grown = await setArea(kept, provider, { area_of_interest: { bbox: [30, -2, 31, -1.25] } });
    expect(grown.status).toBe(200);
    expect(grown.body).toMatchObject({ cells_of_interest: 12 });
    await expect
      .poll(
        async () =>
          (await suite.query('select count(*)::int as n from index_cells_of_interest where held_at is null')).rows[0]
            ?.n,
        {
          timeout: 30_000,
        },
      )
      .toBe(0);
    for (const cell of ['-1.5,30', '-1.75,30.75', '-2,30.5']) {
      const backfilled = await history(kept, cell);
      // The third day's file, ingested before the area grew, is read for them too.
      expect(
        backfilled.readings.map((reading) => reading.date),
        cell,
      ).toEqual(['2024-03-01', '2024-03-02', '2024-03-03']);
      expect(backfilled.readings.slice(0, 2), cell).toEqual((await history(whole, cell)).readings);
    }
  });
});
