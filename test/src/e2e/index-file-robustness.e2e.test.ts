import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA.md §5 acceptance 3 and 6 through `npm start`: a NetCDF-4 file written by ncgen from CDL text
// whose `_FillValue` hole is missing, never 0 (the drought sum over it is incomplete_data), and the bad
// files issue 33 lists, each refused with a clear 4xx, nothing written, the service still answering.

const suite = serviceUnderTest('e2e_index_file_robustness', { MONITOR_ENABLED: 'false' });
const { api } = suite;
const provider: Caller = { sub: 'era5-feed', org: 'org-ecmwf', roles: ['data_provider'] };
const insurer: Caller = { sub: 'underwriter', org: 'org-ins', roles: ['insurer'] };
const work = mkdtempSync(join(tmpdir(), 'e2e-index-file-robustness-'));

/** The week of the policies' closed term: today − 7 … today − 1. */
const WEEK = Array.from({ length: 7 }, (_, at) => addDays(today(), at - 7));
const daysSinceEpoch = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * 3 latitudes × 2 longitudes of 0.25° cell centres, one slice a day of WEEK, made by ncgen as NetCDF-4.
 * The cell centred (−1.625, 30.125) holds the fill value on the week's fourth day (`_` in CDL).
 */
const netcdf4 = (name: string, variable = 'precip'): string => {
  const values = WEEK.flatMap((_, day) => [21.5, 22.25, day === 3 ? '_' : 23.5, 24, 25.25, 26]);
  const cdl = join(work, `${name}.cdl`);
  writeFileSync(
    cdl,
    `netcdf ${name} {
dimensions:
  time = UNLIMITED ;
  lat = 3 ;
  lon = 2 ;
variables:
  double time(time) ;
    time:units = "days since 1970-01-01 00:00:00" ;
    time:calendar = "standard" ;
  float lat(lat) ;
    lat:units = "degrees_north" ;
  float lon(lon) ;
    lon:units = "degrees_east" ;
  float ${variable}(time, lat, lon) ;
    ${variable}:units = "mm" ;
    ${variable}:_FillValue = -32768.f ;
data:
  time = ${WEEK.map(daysSinceEpoch).join(', ')} ;
  lat = -1.375, -1.625, -1.875 ;
  lon = 30.125, 30.375 ;
  ${variable} = ${values.join(', ')} ;
}
`,
  );
  const nc = join(work, `${name}.nc`);
  execFileSync('ncgen', ['-k', 'netCDF-4', '-o', nc, cdl]);
  return nc;
};

const upload = async (sourceId: string, query: string, body: Buffer, contentType: string) => {
  const response = await fetch(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor(provider)}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
};

/** What a refused file must leave as it was: the readings, their revisions and the ingestions. */
const counts = async () =>
  (
    await suite.query(
      `select (select count(*) from index_readings)::int as readings,
              (select count(*) from index_reading_revisions)::int as revisions,
              (select count(*) from index_file_ingestions)::int as ingestions`,
    )
  ).rows[0];

let sequence = 0;
const fieldAt = async (location: { lat: number; lon: number }) => {
  const owner: Caller = { sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${sequence}`,
    name: 'Plot',
    area_ha: 1.5,
    location,
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const droughtPolicy = async (field: { farm_id: string; field_id: string }, sourceId: string) => {
  const response = await api.post('/insurance/policies', insurer, {
    ...field,
    perils: ['drought'],
    sum_insured: 10000,
    currency: 'USD',
    term_start: WEEK[0],
    term_end: WEEK[6],
    data_sources: { drought: sourceId },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
};

describe('a NetCDF-4 file with a _FillValue hole (acceptance 3)', () => {
  let sourceId: string;
  beforeAll(async () => {
    const registered = await api.post('/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'AgERA5 0.25',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
      unit: 'mm',
    });
    expect(registered.status).toBe(201);
    sourceId = registered.body.source_id;
  });

  it('keeps the hole missing, never 0: the drought sum over it is incomplete_data', async () => {
    const posted = await upload(
      sourceId,
      'variable=precip&label=final',
      readFileSync(netcdf4('hole')),
      'application/x-netcdf',
    );
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({
      status: 'succeeded',
      periods: 7,
      locations: 6,
      readings_written: 41,
      missing: 1,
    });

    const series = await api.get(`/insurance/index-readings?source_id=${sourceId}&location=-1.75,30`, insurer);
    expect(series.body.items.map((item: { date: string }) => item.date).sort()).toEqual(
      WEEK.filter((_, day) => day !== 3),
    );
    const hole = await suite.query(
      'select value from index_readings where source_id = $1 and location = $2 and date = $3',
      [sourceId, '-1.75,30', WEEK[3]],
    );
    expect(hole.rows).toEqual([]);

    // A field in the holed cell and one in a full cell of the same file, each with a drought cover over the week.
    const holed = await droughtPolicy(await fieldAt({ lat: -1.6, lon: 30.2 }), sourceId);
    expect(holed.triggers[0].data_source).toMatchObject({ source_id: sourceId, location: '-1.75,30' });
    const full = await droughtPolicy(await fieldAt({ lat: -1.4, lon: 30.2 }), sourceId);
    expect(full.triggers[0].data_source).toMatchObject({ source_id: sourceId, location: '-1.5,30' });

    const skipped = await api.post(`/insurance/policies/${holed.policy_id}/evaluate`, insurer, {});
    expect(skipped.status).toBe(200);
    expect(skipped.body).toMatchObject({
      triggers_evaluated: 0,
      total_payout: 0,
      skipped_perils: ['drought'],
      skipped_reasons: { drought: 'incomplete_data' },
    });
    const evaluated = await api.post(`/insurance/policies/${full.policy_id}/evaluate`, insurer, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body).toMatchObject({ triggers_evaluated: 1, skipped_perils: [] });
  }, 60_000);
});

/** POSTs only the headers of a body announced as `bytes` long, and reads the answer without sending it. */
const announce = async (sourceId: string, bytes: number): Promise<number | undefined> => {
  const url = new URL(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?date=${WEEK[0]}`);
  const token = await tokenFor(provider);
  return new Promise((resolve) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/tiff', 'content-length': String(bytes) },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode);
      request.destroy();
    });
    request.on('error', () => resolve(undefined));
    request.write(Buffer.alloc(16));
  });
};

describe('bad files (acceptance 6): a clear 4xx, nothing written, the service still answers', () => {
  let sourceId: string;
  let stationsId: string;
  beforeAll(async () => {
    const grid = await api.post('/insurance/index-sources', provider, {
      kind: 'grid',
      name: 'AgERA5 0.25 refusals',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
      unit: 'mm',
    });
    sourceId = grid.body.source_id;
    const stations = await api.post('/insurance/index-sources', provider, {
      kind: 'station',
      name: 'Rain gauges',
      index: 'rainfall_mm',
      stations: [
        { station_id: 'KSM-1', lat: -0.1, lon: 34.75 },
        { station_id: 'KSM-2', lat: -0.2, lon: 34.8 },
      ],
      radius_km: 10,
    });
    expect(stations.status).toBe(201);
    stationsId = stations.body.source_id;
  });

  const expectNothingWritten = async (before: Awaited<ReturnType<typeof counts>>) => {
    expect(await counts()).toEqual(before);
    expect((await api.get(`/insurance/index-sources/${sourceId}`, provider)).status).toBe(200);
  };

  it('refuses a NetCDF without the requested variable, naming the variables it has', async () => {
    const before = await counts();
    const refused = await upload(sourceId, 'variable=tmax', readFileSync(netcdf4('no-tmax')), 'application/x-netcdf');
    expect(refused).toMatchObject({ status: 422, body: { code: 'unknown_variable' } });
    expect(refused.body.detail).toMatch(/"tmax".*precip/);
    await expectNothingWritten(before);
  });

  it('refuses a CSV with a stray column, in its header or in a row', async () => {
    const before = await counts();
    const strayRow = `location,date,value\nKSM-1,${WEEK[0]},1.5\nKSM-2,${WEEK[0]},2.5,flagged\n`;
    const row = await upload(stationsId, '', Buffer.from(strayRow), 'text/csv');
    expect(row).toMatchObject({ status: 422, body: { code: 'unreadable_file' } });
    expect(row.body.detail).toMatch(/expect 3, got 4 on line 3/);
    const strayHeader = `location,date,value,quality\nKSM-1,${WEEK[0]},1.5,A\n`;
    const header = await upload(stationsId, '', Buffer.from(strayHeader), 'text/csv');
    expect(header).toMatchObject({ status: 422, body: { code: 'unreadable_file' } });
    const wide = `date,KSM-1,KSM-2,KSM-9\n${WEEK[0]},1.5,2.5,3.5\n`;
    const unknownStation = await upload(stationsId, '', Buffer.from(wide), 'text/csv');
    expect(unknownStation).toMatchObject({ status: 422, body: { code: 'unknown_location' } });
    expect(unknownStation.body.detail).toMatch(/KSM-9/);
    await expectNothingWritten(before);
  });

  it('refuses an out-of-bounds value in a CSV, listing it with its location and period', async () => {
    const before = await counts();
    const csv = `location,date,value\nKSM-1,${WEEK[0]},1.5\nKSM-2,${WEEK[1]},2500\n`;
    const refused = await upload(stationsId, '', Buffer.from(csv), 'text/csv');
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'reading_out_of_bounds', errors: [{ path: `KSM-2/${WEEK[1]}` }] },
    });
    await expectNothingWritten(before);
  });

  it('answers 413 to a 2 GiB announced upload before reading it', async () => {
    const before = await counts();
    expect(await announce(sourceId, 2 * 1024 ** 3)).toBe(413);
    await expectNothingWritten(before);
  });
});
