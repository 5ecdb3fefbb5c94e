import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { errorPaths, expectProblem } from '../support/problem-assertions';
import { ISO_TIMESTAMP } from '../support/seed-shapes';
import { serviceUnderTest } from '../support/service-under-test';

const PATH = '/insurance/index-sources';

const provider: Caller = { sub: 'provider-1', org: 'org-data', roles: ['data_provider'] };
const insurer: Caller = { sub: 'insurer-1', org: 'org-ins', roles: ['insurer'] };
const auditor: Caller = { sub: 'auditor-1', org: 'org-audit', roles: ['auditor'] };
const admin: Caller = { sub: 'admin-1', org: 'org-admin', roles: ['admin'] };
const providerWithoutOrg: Caller = { sub: 'provider-2', roles: ['data_provider'] };

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const stationBody = {
  kind: 'station',
  name: 'Kenya Met synoptic stations',
  index: 'rainfall_mm',
  stations: [
    { station_id: 'KE-NBO', lat: -1.3192, lon: 36.9278 },
    { station_id: 'KE-KSM', lat: -0.0917, lon: 34.7679 },
  ],
};
const gridBody = { kind: 'grid', name: 'CHIRPS v2 0.05°', index: 'rainfall_mm', resolution_deg: 0.05 };
const fieldBody = { kind: 'field', name: 'Soil probes', index: 'ndvi' };

const suite = serviceUnderTest('e2e_sources');
const { api } = suite;

/** How many sources the API lists: what a refused request must leave unchanged. */
const sourceCount = async (): Promise<number> => {
  const listed = await api.get(PATH, insurer);
  expect(listed.status).toBe(200);
  return listed.body.total;
};

describe('POST /insurance/index-sources', () => {
  it('registers a station source with the default radius, readable at once at its Location', async () => {
    const posted = await api.post(PATH, provider, stationBody);
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      source_id: expect.stringMatching(UUID_V7),
      organization_id: 'org-data',
      name: 'Kenya Met synoptic stations',
      index: 'rainfall_mm',
      kind: 'station',
      stations: stationBody.stations,
      radius_km: 25,
      resolution_deg: null,
      unit: null,
      currency: null,
      cadence: 'daily',
      sampling: 'cell',
      product: null,
      model: null,
      registered_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(posted.headers.get('location')).toBe(`${PATH}/${posted.body.source_id}`);
    expect(posted.headers.get('consistency-token')).toEqual(expect.any(String));

    const read = await api.get(posted.headers.get('location')!, auditor);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(posted.body);
  });

  it('registers a grid source and a field source, the fields of other kinds null', async () => {
    const grid = await api.post(PATH, provider, gridBody);
    expect(grid.status).toBe(201);
    expect(grid.body).toEqual({
      source_id: expect.stringMatching(UUID_V7),
      organization_id: 'org-data',
      name: 'CHIRPS v2 0.05°',
      index: 'rainfall_mm',
      kind: 'grid',
      stations: null,
      radius_km: null,
      resolution_deg: 0.05,
      unit: null,
      currency: null,
      cadence: 'daily',
      sampling: 'cell',
      product: null,
      model: null,
      registered_at: expect.stringMatching(ISO_TIMESTAMP),
    });

    const field = await api.post(PATH, admin, { ...fieldBody, name: '  Soil probes  ' });
    expect(field.status).toBe(201);
    expect(field.body).toEqual({
      source_id: expect.stringMatching(UUID_V7),
      organization_id: 'org-admin',
      name: 'Soil probes',
      index: 'ndvi',
      kind: 'field',
      stations: null,
      radius_km: null,
      resolution_deg: null,
      unit: null,
      currency: null,
      cadence: 'daily',
      sampling: 'cell',
      product: null,
      model: null,
      registered_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect((await api.get(`${PATH}/${field.body.source_id}`, provider)).body).toEqual(field.body);
  });

  it('keeps a station radius that is given', async () => {
    const posted = await api.post(PATH, provider, { ...stationBody, radius_km: 10.5 });
    expect(posted.status).toBe(201);
    expect(posted.body.radius_km).toBe(10.5);
  });

  it.each([
    ['an unknown field', { ...gridBody, colour: 'blue' }, 'colour'],
    ['a grid resolution that does not divide 180°', { ...gridBody, resolution_deg: 0.07 }, 'resolution_deg'],
    ['a grid resolution of 7 decimals', { ...gridBody, resolution_deg: 0.0000025 }, 'resolution_deg'],
    [
      'a repeated station id',
      { ...stationBody, stations: [stationBody.stations[0], { ...stationBody.stations[1], station_id: 'KE-NBO' }] },
      'stations.1.station_id',
    ],
    ['no stations', { ...stationBody, stations: [] }, 'stations'],
    ['a station off the globe', { ...stationBody, stations: [{ station_id: 'X', lat: 91, lon: 0 }] }, 'stations.0.lat'],
    ['a station list on a grid', { ...gridBody, stations: stationBody.stations }, 'stations'],
    ['an unknown kind', { ...gridBody, kind: 'satellite' }, 'kind'],
    ['an unknown index', { ...gridBody, index: 'temperature_c' }, 'index'],
    ['a missing name', { kind: 'field', index: 'ndvi' }, 'name'],
  ])('refuses %s with 400 and registers nothing', async (_label, body, path) => {
    const before = await sourceCount();
    const refused = await api.post(PATH, provider, body);
    expectProblem(refused, 400, 'validation_failed');
    expect(errorPaths(refused)).toContain(path);
    expect(await sourceCount()).toBe(before);
  });

  it('refuses an insurer with 403, whatever the body, and registers nothing', async () => {
    const before = await sourceCount();
    expectProblem(await api.post(PATH, insurer, gridBody), 403, 'forbidden');
    expectProblem(await api.post(PATH, insurer, { ...gridBody, resolution_deg: 0.07 }), 403, 'forbidden');
    expect(await sourceCount()).toBe(before);
  });

  it('refuses a data provider without an organization with 403 and registers nothing', async () => {
    const before = await sourceCount();
    expectProblem(await api.post(PATH, providerWithoutOrg, gridBody), 403, 'organization_required');
    expect(await sourceCount()).toBe(before);
  });

  it('refuses a caller without a token with 401 and registers nothing', async () => {
    const before = await sourceCount();
    const refused = await api.request('POST', PATH, { body: gridBody });
    expect(refused.status).toBe(401);
    expect(await sourceCount()).toBe(before);
  });
});

describe('GET /insurance/index-sources', () => {
  it('lists every organization’s sources to every role, newest first, with filters and pages', async () => {
    const all = await api.get(`${PATH}?page_size=100`, auditor);
    expect(all.status).toBe(200);
    const registeredAt = all.body.items.map((item: { registered_at: string }) => item.registered_at);
    expect(registeredAt).toEqual([...registeredAt].sort().reverse());
    expect(new Set(all.body.items.map((item: { organization_id: string }) => item.organization_id))).toEqual(
      new Set(['org-data', 'org-admin']),
    );

    const grids = await api.get(`${PATH}?kind=grid`, insurer);
    expect(grids.body.items.map((item: { kind: string }) => item.kind)).toEqual(['grid']);
    const ndvi = await api.get(`${PATH}?index=ndvi&organization_id=org-admin`, provider);
    expect(ndvi.body).toMatchObject({ total: 1, items: [{ kind: 'field', organization_id: 'org-admin' }] });

    const second = await api.get(`${PATH}?page=2&page_size=1`, insurer);
    expect(second.body).toMatchObject({ total: all.body.total, page: 2, page_size: 1 });
    expect(second.body.items).toEqual([all.body.items[1]]);
    expectProblem(await api.get(`${PATH}?page_size=0`, insurer), 400, 'validation_failed');
  });

  it('answers an unknown source with 404 not_found', async () => {
    expectProblem(await api.get(`${PATH}/0190c6a4-0000-7000-8000-000000000000`, insurer), 404, 'not_found');
  });

  it('refuses a caller with no role, or no organization, with 403', async () => {
    expectProblem(await api.get(PATH, { sub: 'nobody', org: 'org-x', roles: [] }), 403, 'forbidden');
    expectProblem(await api.get(PATH, providerWithoutOrg), 403, 'organization_required');
  });
});
