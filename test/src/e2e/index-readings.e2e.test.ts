import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { errorPaths, expectProblem } from '../support/problem-assertions';
import { ISO_TIMESTAMP } from '../support/seed-shapes';
import { serviceUnderTest } from '../support/service-under-test';

const PATH = '/insurance/index-readings';

// Per-field readings belong to the poster's organization's own field source: the insurer and auditor who
// list them by field are of the provider's organization; another organization's insurer sees none of them.
const provider: Caller = { sub: 'provider-1', org: 'org-data', roles: ['data_provider'] };
const insurer: Caller = { sub: 'insurer-1', org: 'org-data', roles: ['insurer'] };
const auditor: Caller = { sub: 'auditor-1', org: 'org-data', roles: ['auditor'] };
const otherInsurer: Caller = { sub: 'insurer-2', org: 'org-other', roles: ['insurer'] };
const OWN_FIELD_SOURCE = 'organization-fields:org-data';
const SOME_SOURCE = '5f0b7d3e-2a47-4c1e-9a53-6d1f0e2b8c44';

const suite = serviceUnderTest('e2e_readings');
const { api } = suite;
let fieldCount = 0;
/** A fresh field per test, so tests do not see each other's readings. */
const newField = () => ({ farm_id: 'farm-e2e', field_id: `field-${++fieldCount}` });

const utcDate = (offsetDays = 0): string => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const readingsOf = (field: { farm_id: string; field_id: string }, query = '', caller: Caller = provider) =>
  api.get(`${PATH}?farm_id=${field.farm_id}&field_id=${field.field_id}${query}`, caller);

describe('POST /insurance/index-readings', () => {
  it('records readings and lists them back, in date order, with their revision', async () => {
    const field = newField();
    const posted = await api.post(PATH, provider, {
      readings: [
        { ...field, index: 'rainfall_mm', date: '2026-01-02', value: 12.5, source: 'chirps' },
        { ...field, index: 'ndvi', date: '2026-01-01', value: -0.35 },
        { ...field, index: 'rainfall_mm', date: '2026-01-01', value: 0 },
      ],
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ accepted: 3, inserted: 3, updated: 0 });

    const resent = await api.post(PATH, provider, {
      readings: [
        { ...field, index: 'rainfall_mm', date: '2026-01-02', value: 14, source: 'chirps' },
        { ...field, index: 'rainfall_mm', date: '2026-01-01', value: 0 },
      ],
    });
    expect(resent.body).toEqual({ accepted: 2, inserted: 0, updated: 1 });

    const listed = await readingsOf(field);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 3, page: 1, page_size: 20 });
    const stored = { source_id: OWN_FIELD_SOURCE, location: `${field.farm_id}/${field.field_id}` };
    expect(listed.body.items).toEqual([
      {
        ...stored,
        ...field,
        index: 'ndvi',
        date: '2026-01-01',
        value: -0.35,
        source: null,
        revision: 1,
        recorded_at: expect.stringMatching(ISO_TIMESTAMP),
      },
      {
        ...stored,
        ...field,
        index: 'rainfall_mm',
        date: '2026-01-01',
        value: 0,
        source: null,
        revision: 1,
        recorded_at: expect.stringMatching(ISO_TIMESTAMP),
      },
      {
        ...stored,
        ...field,
        index: 'rainfall_mm',
        date: '2026-01-02',
        value: 14,
        source: 'chirps',
        revision: 2,
        recorded_at: expect.stringMatching(ISO_TIMESTAMP),
      },
    ]);
  });

  it('accepts a reading dated today (UTC) and refuses one dated tomorrow, recording nothing', async () => {
    const field = newField();
    const refused = await api.post(PATH, provider, {
      readings: [
        { ...field, index: 'rainfall_mm', date: utcDate(), value: 1 },
        { ...field, index: 'rainfall_mm', date: utcDate(1), value: 2 },
      ],
    });
    expectProblem(refused, 422, 'reading_in_future');
    expect(refused.body.errors).toEqual([{ path: 'readings.1.date', message: 'must not be after today (UTC)' }]);
    expect((await readingsOf(field)).body).toMatchObject({ items: [], total: 0 });

    const today = await api.post(PATH, provider, {
      readings: [{ ...field, index: 'rainfall_mm', date: utcDate(), value: 1 }],
    });
    expect(today.body).toEqual({ accepted: 1, inserted: 1, updated: 0 });
  });

  it.each([
    ['rainfall above its bound', { index: 'rainfall_mm', value: 1000.5 }, 'readings.1.value'],
    ['the missing-value sentinel -9999', { index: 'rainfall_mm', value: -9999 }, 'readings.1.value'],
    ['NDVI outside -1..1', { index: 'ndvi', value: -1.01 }, 'readings.1.value'],
    ['wind above 120 m/s', { index: 'wind_speed_ms', value: 121 }, 'readings.1.value'],
    ['an unknown index', { index: 'soil_moisture', value: 0.2 }, 'readings.1.index'],
    ['an unknown field', { index: 'rainfall_mm', value: 2, humidity: 80 }, 'readings.1.humidity'],
    ['an impossible date', { index: 'rainfall_mm', value: 2, date: '2026-02-30' }, 'readings.1.date'],
    ['a value given as text', { index: 'rainfall_mm', value: '2' }, 'readings.1.value'],
  ])('refuses the whole batch on %s, naming the path, recording nothing', async (_, bad, path) => {
    const field = newField();
    const response = await api.post(PATH, provider, {
      readings: [
        { ...field, index: 'rainfall_mm', date: '2026-01-01', value: 3 },
        { ...field, date: '2026-01-02', ...bad },
      ],
    });
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response)).toEqual([path]);
    expect((await readingsOf(field)).body).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a key given twice in one request', async () => {
    const field = newField();
    const reading = { ...field, index: 'rainfall_mm', date: '2026-01-01', value: 3 };
    const response = await api.post(PATH, provider, { readings: [reading, { ...reading, value: 4 }] });
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response)).toEqual(['readings.1']);
    expect((await readingsOf(field)).body.total).toBe(0);
  });

  it('takes 10,000 readings with UUID ids at once (over 1 MiB), and refuses 10,001', async () => {
    const field = {
      farm_id: '0194d3a0-7c1e-7a55-9b2e-4f6c8d2a1b3c',
      field_id: `0194d3a0-7c1e-7a55-9b2e-4f6c8d2a${++fieldCount}`,
    };
    const readings = Array.from({ length: 10_001 }, (_, day) => ({
      ...field,
      index: 'rainfall_mm',
      date: new Date(Date.UTC(1990, 0, 1 + day)).toISOString().slice(0, 10),
      value: day % 50,
    }));
    const tooMany = await api.post(PATH, provider, { readings });
    expectProblem(tooMany, 400, 'validation_failed');
    expect(errorPaths(tooMany)).toEqual(['readings']);
    expect((await readingsOf(field)).body.total).toBe(0);

    expect(JSON.stringify({ readings: readings.slice(0, 10_000) }).length).toBeGreaterThan(1024 * 1024);
    const accepted = await api.post(PATH, provider, { readings: readings.slice(0, 10_000) });
    expect(accepted.body).toEqual({ accepted: 10_000, inserted: 10_000, updated: 0 });
    expect((await readingsOf(field, '&page=500&page_size=20')).body).toMatchObject({
      total: 10_000,
      items: [{ date: readings[9_980]?.date }, ...Array.from({ length: 19 }, () => expect.anything())],
    });
  });

  it('answers 413 past its 4 MiB bulk limit', async () => {
    const padded = {
      readings: [
        { ...newField(), index: 'rainfall_mm', date: '2026-01-01', value: 1, source: 'x'.repeat(4 * 1024 * 1024) },
      ],
    };
    expectProblem(await api.post(PATH, provider, padded), 413, 'payload_too_large');
  });

  it('is for data providers and admins with an organization', async () => {
    const field = newField();
    const body = { readings: [{ ...field, index: 'rainfall_mm', date: '2026-01-01', value: 3 }] };
    expectProblem(await api.post(PATH, insurer, body), 403, 'forbidden');
    expectProblem(await api.post(PATH, auditor, body), 403, 'forbidden');
    expectProblem(await api.post(PATH, { sub: 'p2', roles: ['data_provider'] }, body), 403, 'organization_required');
    expectProblem(await api.request('POST', PATH, { body }), 401, 'unauthorized');
    expect((await readingsOf(field)).body.total).toBe(0);
    expect((await api.post(PATH, { sub: 'root', org: 'org-admin', roles: ['admin'] }, body)).body).toEqual({
      accepted: 1,
      inserted: 1,
      updated: 0,
    });
  });
});

describe('GET /insurance/index-readings', () => {
  it('filters by index and date range and pages with the true total', async () => {
    const field = newField();
    await api.post(PATH, provider, {
      readings: [1, 2, 3, 4, 5].flatMap((day) => [
        { ...field, index: 'rainfall_mm', date: `2026-01-0${day}`, value: day },
        { ...field, index: 'wind_speed_ms', date: `2026-01-0${day}`, value: day * 2 },
      ]),
    });
    const ranged = await readingsOf(field, '&index=wind_speed_ms&from=2026-01-02&to=2026-01-04', insurer);
    expect(ranged.body.total).toBe(3);
    expect(ranged.body.items.map((item: { date: string; value: number }) => [item.date, item.value])).toEqual([
      ['2026-01-02', 4],
      ['2026-01-03', 6],
      ['2026-01-04', 8],
    ]);
    const second = await readingsOf(field, '&page=2&page_size=4', auditor);
    expect(second.body).toMatchObject({ total: 10, page: 2, page_size: 4 });
    expect(second.body.items.map((item: { index: string; date: string }) => `${item.date} ${item.index}`)).toEqual([
      '2026-01-03 rainfall_mm',
      '2026-01-03 wind_speed_ms',
      '2026-01-04 rainfall_mm',
      '2026-01-04 wind_speed_ms',
    ]);
    expect((await readingsOf(field, '&page=9')).body).toMatchObject({ items: [], total: 10, page: 9 });
    // Another organization's field source at the same field holds nothing.
    expect((await readingsOf(field, '', otherInsurer)).body).toMatchObject({ items: [], total: 0 });
  });

  it.each([
    ['farm_id and field_id missing', '', ['farm_id', 'field_id']],
    ['page_size over 100', '?farm_id=a&field_id=b&page_size=101', ['page_size']],
    ['page 0', '?farm_id=a&field_id=b&page=0', ['page']],
    ['an unknown index', '?farm_id=a&field_id=b&index=humidity', ['index']],
    ['an invalid date', '?farm_id=a&field_id=b&from=2026-13-01', ['from']],
    ['to before from', '?farm_id=a&field_id=b&from=2026-02-01&to=2026-01-01', ['to']],
    ['an unknown parameter', '?farm_id=a&field_id=b&sort=date', ['sort']],
    [
      'a source and a field at once',
      `?source_id=${SOME_SOURCE}&location=x&farm_id=a&field_id=b`,
      // One error on each key given (issue 25): the two shapes cannot be mixed.
      ['source_id', 'location', 'farm_id', 'field_id'],
    ],
    ['a source without its location', `?source_id=${SOME_SOURCE}`, ['location']],
    [
      'a source id that is not a registered source id',
      '?source_id=organization-fields:org-data&location=a/b',
      ['source_id'],
    ],
  ])('refuses %s with 400', async (_, query, paths) => {
    const response = await api.get(`${PATH}${query}`, provider);
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response)).toEqual(paths);
  });

  it('is for data providers, insurers, auditors and admins with an organization', async () => {
    const field = newField();
    expectProblem(await readingsOf(field, '', { sub: 'farmer-1', org: 'org-x' }), 403, 'forbidden');
    expectProblem(await readingsOf(field, '', { sub: 'p3', roles: ['insurer'] }), 403, 'organization_required');
    expect((await readingsOf(field, '', { sub: 'root', org: 'o', roles: ['admin'] })).status).toBe(200);
  });
});
