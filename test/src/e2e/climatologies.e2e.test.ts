import { describe, expect, it } from 'vitest';
import type { ApiResponse, Caller } from '../support/api-client';
import { errorPaths, expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA §2.4 and §3 through `npm start`: unit areas registered on a grid source, a unit-level series
// of daily rainfall written by the test as a producer's wide CSV (one column per unit_id), a dekadal
// climatology asked for as a job and read back, every figure checked against the test's own computation
// from the same file; bad input refused with nothing written.

const suite = serviceUnderTest('e2e_climatologies', { MONITOR_ENABLED: 'false' });
const { api } = suite;

const feed: Caller = { sub: 'arc-feed', org: 'org-arc', roles: ['data_provider'] };
const rivalFeed: Caller = { sub: 'rival-feed', org: 'org-rival', roles: ['data_provider'] };
const insurer: Caller = { sub: 'underwriter', org: 'org-ins', roles: ['insurer'] };

const square = (west: number, south: number, east: number, north: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [east, south],
      [east, north],
      [west, north],
      [west, south],
    ],
  ],
});
const UNITS = [
  { unit_id: 'KE-MRS-N', name: 'Marsabit North', polygon: square(37, 2, 38, 3) },
  { unit_id: 'KE-MRS-S', name: 'Marsabit South', polygon: square(37, 1, 38, 2) },
  {
    unit_id: 'KE-ISL',
    name: 'Isiolo',
    polygon: { type: 'MultiPolygon', coordinates: [square(38, 0, 39, 1).coordinates] },
  },
];
const YEARS = [2021, 2022, 2023];
/** A day the Isiolo column leaves empty: its first dekad of 2022 is incomplete. */
const GAP = '2022-01-04';

const datesOf = (year: number): string[] => {
  const dates: string[] = [];
  for (let day = Date.UTC(year, 0, 1); day <= Date.UTC(year, 11, 31); day += 86_400_000) {
    dates.push(new Date(day).toISOString().slice(0, 10));
  }
  return dates;
};

/** Rain in tenths of a millimetre, varied by unit and day, dry one day in three. */
const tenths = (unit: number, date: string): number => {
  const seed = Number(date.replaceAll('-', '')) * (unit + 7);
  return seed % 3 === 0 ? 0 : seed % 317;
};

/** The producer's wide CSV: `date,<unit_id>,…`, an empty cell where no value was measured. */
const wideCsv = (): string =>
  [
    ['date', ...UNITS.map((unit) => unit.unit_id)].join(','),
    ...YEARS.flatMap(datesOf).map((date) =>
      [
        date,
        ...UNITS.map((unit, at) =>
          unit.unit_id === 'KE-ISL' && date === GAP ? '' : (tenths(at, date) / 10).toString(),
        ),
      ].join(','),
    ),
  ].join('\n');

/** The wide CSV read back as one reading per non-empty cell. */
const readingsOfCsv = (csv: string, sourceId: string) => {
  const [header = '', ...rows] = csv.split('\n');
  const columns = header.split(',').slice(1);
  return rows.flatMap((row) => {
    const [date = '', ...cells] = row.split(',');
    return cells.flatMap((cell, at) =>
      cell === '' ? [] : [{ source_id: sourceId, location: columns[at]!, date, value: Number(cell) }],
    );
  });
};

/** The test's own figures for one unit's dekad: sums in tenths from the CSV, integer arithmetic. */
const expectedDekad = (csv: string, unitId: string, dekad: number) => {
  const [header = '', ...rows] = csv.split('\n');
  const column = header.split(',').indexOf(unitId);
  const month = Math.floor((dekad - 1) / 3) + 1;
  const third = (dekad - 1) % 3;
  const inDekad = (date: string) => {
    const day = Number(date.slice(8, 10));
    return (
      Number(date.slice(5, 7)) === month && (third === 2 ? day >= 21 : day >= third * 10 + 1 && day <= third * 10 + 10)
    );
  };
  const sums = YEARS.flatMap((year) => {
    const cells = rows
      .map((row) => row.split(','))
      .filter(([date = '']) => date.startsWith(`${year}-`) && inDekad(date))
      .map((cells) => cells[column] ?? '');
    return cells.includes('') ? [] : [cells.reduce((sum, cell) => sum + Math.round(Number(cell) * 10), 0)];
  });
  const n = sums.length;
  const total = sums.reduce((sum, value) => sum + value, 0);
  // Mean in millionths, rounded half up: total tenths × 100,000 / n.
  const mean = Number((BigInt(total) * 200_000n + BigInt(n)) / (2n * BigInt(n))) / 1e6;
  const average = total / n;
  const sd = Math.sqrt(sums.reduce((sum, value) => sum + (value - average) ** 2, 0) / (n - 1)) / 10;
  const sorted = [...sums].sort((a, b) => a - b).map((value) => value / 10);
  return { n, mean, sd, p5: sorted[0], p50: sorted[Math.ceil(n / 2) - 1], p95: sorted[Math.ceil((n * 95) / 100) - 1] };
};

const registerGrid = async (): Promise<string> => {
  const source = await api.post('/insurance/index-sources', feed, {
    kind: 'grid',
    name: 'ARC2 unit rainfall',
    index: 'rainfall_mm',
    resolution_deg: 0.1,
  });
  expect(source.status).toBe(201);
  return source.body.source_id;
};

/** Asks for the climatology and follows the job until it is done. */
const climatology = async (sourceId: string, body: object): Promise<ApiResponse> => {
  const asked = await api.post(`/insurance/index-sources/${sourceId}/climatologies`, insurer, body);
  expect(asked.status).toBe(202);
  expect(asked.body.status).toBe('queued');
  const location = asked.headers.get('location')!;
  expect(location).toBe(
    `/insurance/index-sources/${sourceId}/climatologies/${asked.body.name}/jobs/${asked.body.job_id}`,
  );
  for (;;) {
    const job = await api.get(location, insurer);
    expect(job.status).toBe(200);
    if (job.body.status === 'succeeded' || job.body.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

describe('unit areas and a dekadal climatology', () => {
  it('registers units, takes their wide series, and computes the normals the test computes', async () => {
    const sourceId = await registerGrid();
    const units = await api.post(`/insurance/index-sources/${sourceId}/units`, feed, { units: UNITS });
    expect(units.status).toBe(201);
    expect(units.body).toEqual({ source_id: sourceId, registered: UNITS.map((unit) => unit.unit_id), units_total: 3 });
    const again = await api.post(`/insurance/index-sources/${sourceId}/units`, feed, { units: UNITS });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ source_id: sourceId, registered: [], units_total: 3 });

    const csv = wideCsv();
    const readings = readingsOfCsv(csv, sourceId);
    expect(readings).toHaveLength(3 * 1095 - 1);
    const posted = await api.post('/insurance/index-readings', feed, { readings });
    expect(posted.status).toBe(200);

    const job = await climatology(sourceId, {
      name: 'arc2-dekadal',
      years: { from: 2021, to: 2023 },
      period: 'dekad',
      stat: 'sum',
    });
    expect(job.body).toMatchObject({ status: 'succeeded', version: 1, error: null });

    const read = await api.get(`/insurance/index-sources/${sourceId}/climatologies/arc2-dekadal`, insurer);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      source_id: sourceId,
      name: 'arc2-dekadal',
      version: 1,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      years: { from: 2021, to: 2023 },
      period: 'dekad',
      stat: 'sum',
      min_years: 3,
      organization_id: 'org-ins',
      total: 3,
    });
    expect(read.body.locations.map((location: { location: string }) => location.location)).toEqual([
      'KE-ISL',
      'KE-MRS-N',
      'KE-MRS-S',
    ]);
    for (const location of read.body.locations) {
      expect(location.periods).toHaveLength(36);
      for (const dekad of [1, 6, 17, 36]) {
        const expected = expectedDekad(csv, location.location, dekad);
        const normal = location.periods[dekad - 1];
        expect(normal.n).toBe(expected.n);
        if (expected.n < 3) {
          expect(normal).toMatchObject({ mean: null, sd: null, percentiles: null });
          continue;
        }
        expect(normal.mean).toBe(expected.mean);
        expect(Math.abs(normal.sd - expected.sd)).toBeLessThanOrEqual(0.0000005 + 1e-9);
        expect(normal.percentiles).toMatchObject({ p5: expected.p5, p50: expected.p50, p95: expected.p95 });
      }
    }
    // Isiolo's first dekad of 2022 misses a day: two complete years of three, no normal.
    expect(read.body.locations[0].periods[0]).toMatchObject({ period: 1, starts: '01-01', n: 2, mean: null });

    const one = await api.get(
      `/insurance/index-sources/${sourceId}/climatologies/arc2-dekadal/versions/1?location=KE-MRS-S`,
      feed,
    );
    expect(one.status).toBe(200);
    expect(one.body.locations).toEqual([read.body.locations[2]]);
    expect(one.body.digest).toBe(read.body.digest);

    // A second version over unchanged readings: the same numbers, the same digest.
    const second = await climatology(sourceId, {
      name: 'arc2-dekadal',
      years: { from: 2021, to: 2023 },
      period: 'dekad',
      stat: 'sum',
    });
    expect(second.body.version).toBe(2);
    const latest = await api.get(
      `/insurance/index-sources/${sourceId}/climatologies/arc2-dekadal?location=KE-ISL`,
      insurer,
    );
    expect(latest.body).toMatchObject({ version: 2, digest: read.body.digest, locations: [read.body.locations[0]] });
  });
});

describe('bad input', () => {
  it('refuses a bad polygon, an unknown source and another organization, and writes nothing', async () => {
    const sourceId = await registerGrid();
    const open = {
      ...UNITS[0],
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [37, 2],
            [38, 2],
            [38, 3],
            [37, 3],
          ],
        ],
      },
    };
    const refused = await api.post(`/insurance/index-sources/${sourceId}/units`, feed, { units: [open] });
    expectProblem(refused, 400, 'validation_failed');
    expect(errorPaths(refused)).toEqual(['units.0.polygon.coordinates.0']);
    const offEarth = { ...UNITS[0], polygon: square(37, 2, 181, 3) };
    const off = await api.post(`/insurance/index-sources/${sourceId}/units`, feed, { units: [offEarth] });
    expectProblem(off, 400, 'validation_failed');
    expectProblem(
      await api.post('/insurance/index-sources/no-such-source/units', feed, { units: UNITS }),
      404,
      'source_not_found',
    );
    expectProblem(
      await api.post(`/insurance/index-sources/${sourceId}/units`, rivalFeed, { units: UNITS }),
      403,
      'not_source_owner',
    );
    // Nothing was registered: the unit is no location of the source.
    const reading = await api.post('/insurance/index-readings', feed, {
      readings: [{ source_id: sourceId, location: 'KE-MRS-N', date: '2023-01-01', value: 1 }],
    });
    expectProblem(reading, 422, 'unknown_location');
  });

  it('refuses a climatology of an unknown source, of years with no data or not over, and writes nothing', async () => {
    const sourceId = await registerGrid();
    const body = { name: 'empty', years: { from: 2001, to: 2003 }, period: 'dekad', stat: 'mean' };
    expectProblem(
      await api.post('/insurance/index-sources/no-such-source/climatologies', insurer, body),
      404,
      'source_not_found',
    );
    expectProblem(
      await api.post(`/insurance/index-sources/${sourceId}/climatologies`, insurer, body),
      422,
      'no_readings_in_years',
    );
    const thisYear = new Date().getUTCFullYear();
    const unfinished = { ...body, years: { from: 2001, to: thisYear } };
    expectProblem(
      await api.post(`/insurance/index-sources/${sourceId}/climatologies`, insurer, unfinished),
      422,
      'years_not_past',
    );
    const badPeriod = await api.post(`/insurance/index-sources/${sourceId}/climatologies`, insurer, {
      ...body,
      period: 'week',
    });
    expectProblem(badPeriod, 400, 'validation_failed');
    expectProblem(
      await api.get(`/insurance/index-sources/${sourceId}/climatologies/empty`, insurer),
      404,
      'climatology_not_found',
    );
  });
});
