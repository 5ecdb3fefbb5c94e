import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { apiClient, type Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { expectProblem } from '../support/problem-assertions';
import { repositoryRoot, startService } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

// SPEC §7 "Index data" over HTTP through `npm start`: only a policy's frozen source and location move its
// payout, one grid cell's series pays every field in it, and the audit CLI catches a reading revised
// after the evaluation that used it.

const run = promisify(execFile);

const suite = serviceUnderTest('e2e_index_data', { MONITOR_ENABLED: 'false' });
const { api } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter', org: 'org-ins', roles: ['insurer'] };
const insurersFeed: Caller = { sub: 'ins-feed', org: 'org-ins', roles: ['data_provider'] };
const rogueFeed: Caller = { sub: 'rogue-feed', org: 'org-rogue', roles: ['data_provider'] };
const weatherService: Caller = { sub: 'chirps-feed', org: 'org-weather', roles: ['data_provider'] };
const farmer = (): Caller => ({ sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' });

const fieldAt = async (location: { lat: number; lon: number }) => {
  const owner = farmer();
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${++sequence}`,
    name: 'Plot',
    area_ha: 1.5,
    location,
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const register = async (caller: Caller, body: Record<string, unknown>): Promise<string> => {
  const response = await api.post('/insurance/index-sources', caller, body);
  expect(response.status).toBe(201);
  return response.body.source_id;
};

const issue = async (field: { farm_id: string; field_id: string }, perils: string[], dataSources: object) => {
  const response = await api.post('/insurance/policies', insurer, {
    ...field,
    perils,
    sum_insured: 10000,
    currency: 'USD',
    term_start: addDays(today(), -5),
    term_end: addDays(today(), 90),
    data_sources: dataSources,
  });
  expect(response.status).toBe(201);
  return response.body;
};

const evaluate = (policyId: string) => api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});

const readingsOf = (sourceId: string, location: string) =>
  api.get(`/insurance/index-readings?source_id=${sourceId}&location=${encodeURIComponent(location)}`, insurer);

const rainByDay = (sourceId: string, location: string, values: readonly number[]) => ({
  readings: values.map((value, offset) => ({
    source_id: sourceId,
    location,
    date: addDays(today(), offset - 5),
    value,
  })),
});

describe('a policy reads only its frozen source and location', () => {
  it('leaves the payout at 0 when another organization posts on the field, and refuses it the insurer’s source', async () => {
    const field = await fieldAt({ lat: -1.29, lon: 36.82 });
    const stations = await register(insurersFeed, {
      kind: 'station',
      name: 'Insurer anemometers',
      index: 'wind_speed_ms',
      stations: [{ station_id: 'NBO-1', lat: -1.3, lon: 36.8 }],
      radius_km: 10,
    });
    const policy = await issue(field, ['storm'], { storm: stations });
    expect(policy.triggers[0].data_source).toMatchObject({ source_id: stations, kind: 'station', location: 'NBO-1' });

    // The rogue provider's own field readings are accepted — they are its organization's, read by nobody's
    // policy here — but the insurer's station is not its to write.
    const onField = await api.post('/insurance/index-readings', rogueFeed, {
      readings: [{ ...field, index: 'wind_speed_ms', date: addDays(today(), -1), value: 60 }],
    });
    expect(onField.status).toBe(200);
    const onStation = await api.post('/insurance/index-readings', rogueFeed, {
      readings: [{ source_id: stations, location: 'NBO-1', date: addDays(today(), -1), value: 60 }],
    });
    expectProblem(onStation, 403, 'not_source_owner');
    expect((await readingsOf(stations, 'NBO-1')).body.total).toBe(0);

    const untouched = await evaluate(policy.policy_id);
    expect(untouched.status).toBe(200);
    expect(untouched.body).toMatchObject({ total_payout: 0, skipped_perils: ['storm'] });

    const own = await api.post('/insurance/index-readings', insurersFeed, {
      readings: [{ source_id: stations, location: 'NBO-1', date: addDays(today(), -1), value: 32.5 }],
    });
    expect(own.status).toBe(200);
    const paid = await evaluate(policy.policy_id);
    expect(paid.body).toMatchObject({ total_payout: 5000, payout_count: 1 });
  }, 60_000);

  it('pays two fields of one grid cell from one posted series', async () => {
    // Both fields lie in the 0.05° cell whose south-west corner is (-1.3, 36.8).
    const west = await fieldAt({ lat: -1.29, lon: 36.82 });
    const east = await fieldAt({ lat: -1.27, lon: 36.84 });
    const chirps = await register(weatherService, {
      kind: 'grid',
      name: 'CHIRPS daily',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
    });
    const policies = [await issue(west, ['flood'], { flood: chirps }), await issue(east, ['flood'], { flood: chirps })];
    for (const policy of policies) {
      expect(policy.triggers[0].data_source).toEqual({
        source_id: chirps,
        kind: 'grid',
        index: 'rainfall_mm',
        location: '-1.3,36.8',
      });
    }
    // Posted once, at the cell's centre as CHIRPS publishes it.
    const posted = await api.post(
      '/insurance/index-readings',
      weatherService,
      rainByDay(chirps, '-1.275,36.825', [40, 40, 40, 40, 40]),
    );
    expect(posted.body).toEqual({ accepted: 5, inserted: 5, updated: 0 });

    for (const policy of policies) {
      const response = await evaluate(policy.policy_id);
      // 5-day rain 200 mm: severity (200 − 150) / (300 − 150) of USD 10,000.
      expect(response.body).toMatchObject({ total_payout: 3333.33, payout_count: 1 });
      expect(response.body.events[0]).toMatchObject({ peril: 'flood', observed_value: 200 });
    }
  }, 60_000);

  it('reads the deployment’s default source of an index when the cover names none', async () => {
    const grid = await register(weatherService, {
      kind: 'grid',
      name: 'National rainfall grid',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
    });
    const configured = await startService({
      DATABASE_URL: suite.databaseUrl,
      MONITOR_ENABLED: 'false',
      INDEX_SOURCE_DEFAULTS: `rainfall_mm=${grid}`,
    });
    try {
      const field = await fieldAt({ lat: -1.29, lon: 36.82 });
      const response = await apiClient(configured.baseUrl).post('/insurance/policies', insurer, {
        ...field,
        perils: ['flood', 'storm'],
        sum_insured: 10000,
        currency: 'USD',
        term_start: addDays(today(), -5),
        term_end: addDays(today(), 90),
      });
      expect(response.status).toBe(201);
      const [flood, storm] = response.body.triggers;
      expect(flood.data_source).toEqual({
        source_id: grid,
        kind: 'grid',
        index: 'rainfall_mm',
        location: '-1.5,36.75',
      });
      // No default for wind: the insurer's own readings of the field.
      expect(storm.data_source).toMatchObject({ source_id: 'organization-fields:org-ins', kind: 'field' });
    } finally {
      await configured.stop();
    }
  }, 60_000);

  it('makes the audit CLI report the digest mismatch of an evaluation whose reading was revised', async () => {
    const field = await fieldAt({ lat: 10.05, lon: 179.99 });
    const grid = await register(weatherService, {
      kind: 'grid',
      name: 'Pacific rain',
      index: 'rainfall_mm',
      resolution_deg: 0.05,
    });
    const policy = await issue(field, ['flood'], { flood: grid });
    // Exactly on the cell's south edge: the field belongs to the cell north of it.
    expect(policy.triggers[0].data_source.location).toBe('10.05,179.95');
    const posted = await api.post(
      '/insurance/index-readings',
      weatherService,
      rainByDay(grid, '10.05,179.95', [40, 40, 40, 40, 40]),
    );
    expect(posted.body).toEqual({ accepted: 5, inserted: 5, updated: 0 });
    expect((await evaluate(policy.policy_id)).body).toMatchObject({ total_payout: 3333.33 });

    const audit = async () =>
      (
        await run('npm', ['run', '--silent', 'audit', '--', policy.policy_id], {
          cwd: repositoryRoot,
          env: { ...process.env, DATABASE_URL: suite.databaseUrl, LOG_LEVEL: 'silent' },
        })
      ).stdout;
    expect(await audit()).toMatch(
      /^digest #1 flood \(5 readings of .* at 10\.05,179\.95, .*\): matches the readings$/m,
    );

    const revised = await api.post('/insurance/index-readings', weatherService, {
      readings: [{ source_id: grid, location: '10.07,179.97', date: addDays(today(), -3), value: 10 }],
    });
    expect(revised.body).toEqual({ accepted: 1, inserted: 0, updated: 1 });
    expect(await audit()).toMatch(
      /^digest #1 flood .*: MISMATCH: the readings changed since; as they stood then they still reproduce it$/m,
    );
  }, 60_000);
});
