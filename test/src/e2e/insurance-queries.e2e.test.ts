import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { errorPaths, expectProblem } from '../support/problem-assertions';
import { DEFAULT_PRODUCT, ISO_TIMESTAMP, POLICY_KEYS } from '../support/seed-shapes';
import { repositoryRoot, TEST_JWT_SECRET } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

// The insurance reads (policy list, policy, evaluation history, audit stream and the audit CLI) over
// real HTTP against the all-in-one service on real PostgreSQL. The service runs on the real clock, so
// every date is relative to today; the monitor is off so only the tests evaluate.

const LIST_ITEM_KEYS = [
  'crop_type',
  'currency',
  'farm_id',
  'field_id',
  'issued_at',
  'next_monitoring_date',
  'perils',
  'policy_id',
  'premium',
  'status',
  'sum_insured',
  'term_end',
  'term_start',
];
const HISTORY_ITEM_KEYS = [
  'as_of',
  'breached',
  'coverage',
  'evaluated_at',
  'evaluation_id',
  'observed_value',
  'peril',
  'severity',
  'threshold',
  'trigger_index',
  'window_end',
  'window_start',
];
const METADATA_KEYS = [
  'actor',
  'causation_id',
  'correlation_id',
  'event_id',
  'occurred_at',
  'organization_id',
  'platform_version',
  'schema_version',
];
const UNKNOWN_POLICY = '0190f1e2-0000-7000-8000-00000000abcd';

const suite = serviceUnderTest('e2e_insurance_queries', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter-q', org: 'org-q', roles: ['insurer'] };
const auditor: Caller = { sub: 'auditor-q', org: 'org-q', roles: ['auditor'] };
const otherInsurer: Caller = { sub: 'underwriter-z', org: 'org-z', roles: ['insurer'] };
const otherAuditor: Caller = { sub: 'auditor-z', org: 'org-z', roles: ['auditor'] };
const otherAdmin: Caller = { sub: 'ops-z', org: 'org-z', roles: ['admin'] };
// The data provider of the insurer's own organization: a policy that names no source reads only the field
// readings its own organization posted.
const dataProvider: Caller = { sub: 'weather-feed', org: 'org-q', roles: ['data_provider'] };
const farmer = (): Caller => ({
  sub: `farmer-q-${++sequence}-${Date.now()}`,
  givenName: 'Amina',
  familyName: 'Otieno',
});

/** Events a request could have appended: the programme book keeper writes programme and reinsurance
 *  streams on its own, moments after an issue, lapse or close, so those are left out. */
const eventCount = async (): Promise<number> =>
  Number(
    (
      await query<{ count: string }>(
        `select count(*) from events where stream_id not like 'programme-%' and stream_id not like 'reinsurance-%'`,
      )
    ).rows[0]!.count,
  );

/** Daily readings of one index from `start`, pushed as a data provider does. */
/** A farmer's farm with one registered maize field. */
const farmWithField = async () => {
  const owner = farmer();
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!, 'org-list');
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${++sequence}`,
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    crop_type: 'maize',
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const issueResponse = (
  field: { farm_id: string; field_id: string },
  overrides: Record<string, unknown> = {},
  caller: Caller = insurer,
  headers?: Record<string, string>,
) =>
  api.post(
    '/insurance/policies',
    caller,
    {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['flood', 'storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
      ...overrides,
    },
    headers,
  );

const issue = async (
  field: { farm_id: string; field_id: string },
  overrides: Record<string, unknown> = {},
  caller: Caller = insurer,
) => {
  const response = await issueResponse(field, overrides, caller);
  expect(response.status).toBe(201);
  return response.body;
};

const evaluate = (policyId: string, body: unknown = {}, caller: Caller = insurer) =>
  api.post(`/insurance/policies/${policyId}/evaluate`, caller, body);

/** Rainfall whose 5-day sum is 180 mm from term start: a flood breach of severity 0.2, posted by the data
 *  provider of the policy's organization. */
const floodRain = (field: { farm_id: string; field_id: string }, termStart: string, provider: Caller = dataProvider) =>
  recordReadings(api, provider, field, 'rainfall_mm', termStart, [40, 40, 40, 40, 20]);

const idsOf = (response: ApiResponse): string[] =>
  (response.body.items as { policy_id: string }[]).map((item) => item.policy_id);

describe('GET /insurance/policies (endpoint 2)', () => {
  // An organization of its own, so its totals count only the policies made here.
  const lister: Caller = { sub: 'underwriter-list', org: 'org-list', roles: ['insurer'] };
  const listAuditor: Caller = { sub: 'auditor-list', org: 'org-list', roles: ['auditor'] };
  const listProvider: Caller = { sub: 'weather-feed', org: 'org-list', roles: ['data_provider'] };
  let farmA: { farm_id: string; field_id: string };
  let farmB: { farm_id: string; field_id: string };
  /** Issued in this order, so the list shows them newest first: claimed, lapsed, active × 3. */
  const ids: string[] = [];
  const list = (query = '', caller: Caller = lister) => api.get(`/insurance/policies${query}`, caller);

  beforeAll(async () => {
    farmA = await farmWithField();
    farmB = await farmWithField();
    const claimed = await issue(farmA, { perils: ['flood', 'storm'] }, lister);
    await floodRain(farmA, claimed.term_start, listProvider);
    expect((await evaluate(claimed.policy_id, {}, lister)).body.policy_status).toBe('claimed');
    const lapsed = await issue(farmA, { perils: ['drought'] }, lister);
    expect((await api.post(`/insurance/policies/${lapsed.policy_id}/lapse`, lister, { reason: 'unpaid' })).status).toBe(
      200,
    );
    const floodAndVegetation = await issue(farmB, { perils: ['flood', 'vegetation_stress'] }, lister);
    const storm = await issue(farmB, { perils: ['storm'], crop_type: 'beans', sum_insured: 5000 }, lister);
    const droughtAndVegetation = await issue(farmA, { perils: ['vegetation_stress', 'drought'] }, lister);
    ids.push(claimed.policy_id, lapsed.policy_id, floodAndVegetation.policy_id, storm.policy_id);
    ids.push(droughtAndVegetation.policy_id);
  }, 60_000);

  /** The policies at these issue positions (0 = first issued), as the list must order them. */
  const newestFirst = (...positions: number[]): string[] =>
    positions.sort((a, b) => b - a).map((position) => ids[position]!);

  it('lists the organization’s policies newest first with the defaults page 1 and page_size 20', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['items', 'page', 'page_size', 'total']);
    expect(response.body).toMatchObject({ total: 5, page: 1, page_size: 20 });
    expect(idsOf(response)).toEqual(newestFirst(0, 1, 2, 3, 4));
    const items = response.body.items as { issued_at: string; policy_id: string }[];
    for (const [index, item] of items.entries()) {
      const next = items[index + 1];
      if (next === undefined) continue;
      expect(
        item.issued_at > next.issued_at || (item.issued_at === next.issued_at && item.policy_id < next.policy_id),
      ).toBe(true);
    }
  });

  it('shows each item as a PolicyListItem, field by field, matching the policy itself', async () => {
    const response = await list();
    const [droughtAndVegetation, storm, , lapsed, claimed] = response.body.items;
    expect(Object.keys(storm).sort()).toEqual(LIST_ITEM_KEYS);
    expect(storm).toEqual({
      policy_id: ids[3],
      farm_id: farmB.farm_id,
      field_id: farmB.field_id,
      crop_type: 'beans',
      sum_insured: 5000,
      currency: 'USD',
      // 96 days (today − 5 to today + 90) of storm: 0.02 × 96/365 × 5,000 = 26.3013… → 26.30.
      premium: 26.3,
      perils: ['storm'],
      status: 'active',
      issued_at: expect.stringMatching(ISO_TIMESTAMP),
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
      next_monitoring_date: addDays(today(), 1),
    });
    // The field's crop is the policy's when the issue request names none.
    expect(droughtAndVegetation).toMatchObject({ crop_type: 'maize', perils: ['vegetation_stress', 'drought'] });
    // (0.03 + 0.02) × 96/365 × 10,000 = 131.5068… → 131.51.
    expect(claimed).toMatchObject({ status: 'claimed', perils: ['flood', 'storm'], premium: 131.51 });
    // A lapsed policy is no longer monitored.
    expect(Object.keys(lapsed).sort()).toEqual(LIST_ITEM_KEYS.filter((key) => key !== 'next_monitoring_date'));
    expect(lapsed).toMatchObject({ status: 'lapsed', perils: ['drought'] });
    for (const item of response.body.items) {
      const policy = await api.get(`/insurance/policies/${item.policy_id}`, lister);
      expect(policy.status).toBe(200);
      const shared = Object.fromEntries(Object.keys(item).map((key) => [key, policy.body[key]]));
      expect(item).toEqual(shared);
    }
  });

  it.each([
    ['?status=active', [2, 3, 4]],
    ['?status=claimed', [0]],
    ['?status=lapsed', [1]],
    ['?status=expired', []],
    ['?peril=flood', [0, 2]],
    ['?peril=vegetation_stress', [2, 4]],
    ['?peril=storm&status=active', [3]],
    ['?peril=drought&status=active', [4]],
  ] as [string, number[]][])('filters %s', async (query, positions) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual(newestFirst(...positions));
    expect(response.body.total).toBe(positions.length);
  });

  it('combines farm_id with status and peril by AND', async () => {
    const byFarm = await list(`?farm_id=${farmA.farm_id}`);
    expect(idsOf(byFarm)).toEqual(newestFirst(0, 1, 4));
    expect(byFarm.body.total).toBe(3);
    const all = await list(`?farm_id=${farmA.farm_id}&status=active&peril=drought`);
    expect(idsOf(all)).toEqual(newestFirst(4));
    expect(all.body.total).toBe(1);
    const none = await list(`?farm_id=${farmB.farm_id}&peril=drought`);
    expect(none.body).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
    const unknownFarm = await list('?farm_id=no-such-farm');
    expect(unknownFarm.body).toMatchObject({ items: [], total: 0 });
  });

  it('pages through the list; a page past the end is empty with the true total', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(`?page=${page}&page_size=2`)));
    for (const [index, page] of pages.entries()) {
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ total: 5, page: index + 1, page_size: 2 });
    }
    expect(pages.flatMap(idsOf)).toEqual(newestFirst(0, 1, 2, 3, 4));
    expect(pages.map((page) => page.body.items.length)).toEqual([2, 2, 1]);
    const past = await list('?page=4&page_size=2');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ items: [], total: 5, page: 4, page_size: 2 });
    const filteredPast = await list('?status=active&page=9');
    expect(filteredPast.body).toEqual({ items: [], total: 3, page: 9, page_size: 20 });
    const largest = await list('?page_size=100');
    expect(largest.status).toBe(200);
    expect(largest.body).toMatchObject({ total: 5, page: 1, page_size: 100 });
    expect(idsOf(largest)).toEqual(newestFirst(0, 1, 2, 3, 4));
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=-1', 'page'],
    ['?page=1.5', 'page'],
    ['?page=abc', 'page'],
    ['?page_size=0', 'page_size'],
    ['?page_size=101', 'page_size'],
    ['?page_size=2.5', 'page_size'],
    ['?page_size=ten', 'page_size'],
    ['?status=pending', 'status'],
    ['?peril=hail', 'peril'],
    ['?sort=premium', 'sort'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const response = await list(query);
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response)).toContain(path);
  });

  it('names every offending parameter at once', async () => {
    const response = await list('?page=0&page_size=101');
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response).sort()).toEqual(['page', 'page_size']);
  });

  it('shows another organization an empty list and 404 for each policy, even on its farm', async () => {
    for (const query of ['', `?farm_id=${farmA.farm_id}`, '?status=claimed', '?peril=flood']) {
      const response = await list(query, otherInsurer);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ items: [], total: 0, page: 1, page_size: 20 });
    }
    // Lists only ever show the caller's organization, an admin's too.
    expect((await list('', otherAdmin)).body.total).toBe(0);
    for (const id of ids) {
      for (const path of ['', '/evaluations', '/events']) {
        expectProblem(await api.get(`/insurance/policies/${id}${path}`, otherInsurer), 404, 'not_found');
      }
    }
  });

  it('lets an auditor of the organization list, and refuses a data provider, no organization or no token', async () => {
    const audited = await list('', listAuditor);
    expect(audited.status).toBe(200);
    expect(idsOf(audited)).toEqual(newestFirst(0, 1, 2, 3, 4));
    expectProblem(await list('', { sub: 'feed', org: 'org-list', roles: ['data_provider'] }), 403, 'forbidden');
    expectProblem(await list('', { sub: 'farmer', org: 'org-list', roles: [] }), 403, 'forbidden');
    expectProblem(await list('', { sub: 'orphan', roles: ['insurer'] }), 403, 'organization_required');
    const anonymous = await api.get('/insurance/policies');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('GET /insurance/policies/{policy_id} (endpoint 4)', () => {
  it('finds the policy right after it is issued, field by field, with no trigger data yet', async () => {
    const field = await farmWithField();
    const issued = await issueResponse(field, { perils: ['drought', 'flood', 'vegetation_stress', 'storm'] });
    expect(issued.status).toBe(201);
    const response = await api.get(`/insurance/policies/${issued.body.policy_id}`, insurer);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(POLICY_KEYS);
    // No source named and no deployment default: each peril reads the insurer's own readings of the field.
    const ownFieldData = (index: string) => ({
      source_id: 'organization-fields:org-q',
      kind: 'field',
      index,
      location: `${field.farm_id}/${field.field_id}`,
    });
    expect(response.body).toEqual({
      policy_id: issued.body.policy_id,
      organization_id: 'org-q',
      environment: 'sandbox',
      farm_id: field.farm_id,
      field_id: field.field_id,
      farm_name: 'Shamba',
      field_name: 'North plot',
      field_area_ha: 2.5,
      field_location: '-1.29,36.82',
      crop_type: 'maize',
      sum_insured: 10000,
      currency: 'USD',
      // 96 days of all four perils: 0.14 × 96/365 × 10,000 = 368.2191… → 368.22.
      premium: 368.22,
      perils: ['drought', 'flood', 'vegetation_stress', 'storm'],
      product: DEFAULT_PRODUCT,
      triggers: [
        {
          peril: 'drought',
          trigger_index: 'cumulative_rainfall_mm',
          current_index_reading: null,
          // 2.0 mm × 96 term days.
          trigger_threshold: 192,
          comparison: 'lte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownFieldData('rainfall_mm'),
        },
        {
          peril: 'flood',
          trigger_index: 'max_5day_rainfall_mm',
          current_index_reading: null,
          trigger_threshold: 150,
          comparison: 'gte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownFieldData('rainfall_mm'),
        },
        {
          peril: 'vegetation_stress',
          trigger_index: 'mean_ndvi_30d',
          current_index_reading: null,
          trigger_threshold: 0.35,
          comparison: 'lte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownFieldData('ndvi'),
        },
        {
          peril: 'storm',
          trigger_index: 'max_wind_speed_ms',
          current_index_reading: null,
          trigger_threshold: 25,
          comparison: 'gte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownFieldData('wind_speed_ms'),
        },
      ],
      status: 'active',
      issued_at: expect.stringMatching(ISO_TIMESTAMP),
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
      platform_version: expect.any(String),
      next_monitoring_date: addDays(today(), 1),
    });
    // The read side shows what the write answered.
    expect(response.body).toEqual(issued.body);
    const withToken = await api.get(`/insurance/policies/${issued.body.policy_id}`, insurer, {
      'consistency-token': issued.headers.get('consistency-token')!,
    });
    expect(withToken.status).toBe(200);
  });

  it('shows the live aggregate of the readings in the window, without evaluating', async () => {
    const field = await farmWithField();
    const policy = await issue(field, { perils: ['drought', 'flood', 'vegetation_stress', 'storm'] });
    // A cloudburst the day before the term must not count: it would make the 5-day sum 660 mm.
    await recordReadings(api, dataProvider, field, 'rainfall_mm', addDays(policy.term_start, -1), [500]);
    await recordReadings(api, dataProvider, field, 'rainfall_mm', policy.term_start, [40, 40, 40, 40, 20, 0]);
    await recordReadings(api, dataProvider, field, 'wind_speed_ms', policy.term_start, [12, 28.5, 9]);
    // NDVI on every day so far: a mean over fewer than 90% of its days would not be shown.
    await recordReadings(api, dataProvider, field, 'ndvi', policy.term_start, Array(6).fill(0.5));
    const before = await eventCount();
    const response = await api.get(`/insurance/policies/${policy.policy_id}`, insurer);
    expect(response.status).toBe(200);
    const byPeril = Object.fromEntries(
      (response.body.triggers as { peril: string }[]).map((trigger) => [trigger.peril, trigger]),
    );
    // Every day of the window read: 180 mm in all.
    expect(byPeril.drought).toMatchObject({ current_index_reading: 180, data_available: true, trigger_threshold: 192 });
    expect(byPeril.flood).toMatchObject({ current_index_reading: 180, data_available: true });
    expect(byPeril.storm).toMatchObject({ current_index_reading: 28.5, data_available: true });
    // The mean of the NDVI in the window's last 30 days, shown before a breach could be declared.
    expect(byPeril.vegetation_stress).toMatchObject({ current_index_reading: 0.5, data_available: true });
    // Reading the trigger status is not an evaluation.
    expect(response.body.status).toBe('active');
    expect(await eventCount()).toBe(before);
    expect((await api.get(`/insurance/policies/${policy.policy_id}/evaluations`, insurer)).body.total).toBe(0);
  });

  it('leaves the field enrichment out when the field_id is not registered', async () => {
    const field = await farmWithField();
    const policy = await issue({ farm_id: field.farm_id, field_id: 'unregistered-plot' }, { perils: ['flood'] });
    const response = await api.get(`/insurance/policies/${policy.policy_id}`, insurer);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      POLICY_KEYS.filter((key) => !['crop_type', 'field_area_ha', 'field_location', 'field_name'].includes(key)),
    );
    expect(response.body).toMatchObject({ field_id: 'unregistered-plot', farm_name: 'Shamba' });
  });

  it('answers 404 for an unknown policy or another organization’s, 400 for an absurd id, 403 for a data provider', async () => {
    const policy = await issue(await farmWithField());
    expectProblem(await api.get(`/insurance/policies/${UNKNOWN_POLICY}`, insurer), 404, 'not_found');
    expectProblem(await api.get(`/insurance/policies/${policy.policy_id}`, otherInsurer), 404, 'not_found');
    expectProblem(await api.get(`/insurance/policies/${policy.policy_id}`, otherAuditor), 404, 'not_found');
    expectProblem(await api.get(`/insurance/policies/${'x'.repeat(101)}`, insurer), 400, 'validation_failed');
    expectProblem(await api.get(`/insurance/policies/${policy.policy_id}`, dataProvider), 403, 'forbidden');
    expect((await api.get(`/insurance/policies/${policy.policy_id}`, auditor)).status).toBe(200);
    expect((await api.get(`/insurance/policies/${policy.policy_id}`, otherAdmin)).status).toBe(200);
  });
});

describe('GET /insurance/policies/{policy_id}/evaluations (endpoint 7)', () => {
  const history = (policyId: string, query = '', caller: Caller = insurer) =>
    api.get(`/insurance/policies/${policyId}/evaluations${query}`, caller);

  it('records each evaluated peril of each live evaluation, newest first, with its payout until settled', async () => {
    const field = await farmWithField();
    const policy = await issue(field);
    const empty = await history(policy.policy_id);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ policy_id: policy.policy_id, items: [], total: 0, page: 1, page_size: 20 });

    await floodRain(field, policy.term_start);
    const first = await evaluate(policy.policy_id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total_payout: 2000, payout_count: 1, policy_status: 'claimed' });
    expect(first.body.triggers_evaluated + first.body.skipped_perils.length).toBe(first.body.triggers_total);

    const afterFirst = await history(policy.policy_id);
    expect(afterFirst.body).toMatchObject({ total: 1, page: 1, page_size: 20 });
    const [flood] = afterFirst.body.items;
    expect(Object.keys(flood).sort()).toEqual([...HISTORY_ITEM_KEYS, 'payout'].sort());
    expect(flood).toEqual({
      evaluation_id: expect.any(String),
      peril: 'flood',
      trigger_index: 'max_5day_rainfall_mm',
      observed_value: 180,
      threshold: 150,
      breached: true,
      severity: 0.2,
      as_of: today(),
      window_start: policy.term_start,
      window_end: today(),
      evaluated_at: expect.stringMatching(ISO_TIMESTAMP),
      // Rain on the first 5 of the window's 6 days (term start to today).
      coverage: { days_with_reading: 5, days_in_window: 6 },
      payout: { payout_id: expect.any(String), amount: 2000, currency: 'USD', status: 'approved' },
    });

    // The first payout makes the policy claimed, in the policy and in the list filter.
    expect((await api.get(`/insurance/policies/${policy.policy_id}`, insurer)).body.status).toBe('claimed');
    expect(idsOf(await api.get('/insurance/policies?status=claimed&page_size=100', insurer))).toContain(
      policy.policy_id,
    );
    expect(idsOf(await api.get('/insurance/policies?status=active&page_size=100', insurer))).not.toContain(
      policy.policy_id,
    );

    // A backtest is computed, never stored: no history item, nothing in the log.
    const before = await eventCount();
    const backtest = await evaluate(policy.policy_id, { as_of: addDays(today(), -1) });
    expect(backtest.body).toMatchObject({ is_backtest: true, total_payout: 2000 });
    expect(backtest.body.triggers_evaluated + backtest.body.skipped_perils.length).toBe(backtest.body.triggers_total);
    expect(await eventCount()).toBe(before);
    expect((await history(policy.policy_id)).body.total).toBe(1);

    // Storm at 28 m/s: severity (28 − 25) / (40 − 25) = 0.2, another 2000; flood unchanged pays nothing.
    await recordReadings(api, dataProvider, field, 'wind_speed_ms', addDays(today(), -1), [28]);
    const second = await evaluate(policy.policy_id);
    expect(second.body).toMatchObject({
      total_payout: 2000,
      payout_count: 1,
      triggers_evaluated: 2,
      triggers_total: 2,
    });
    expect(second.body.triggers_evaluated + (second.body.skipped_perils ?? []).length).toBe(second.body.triggers_total);

    const afterSecond = await history(policy.policy_id);
    expect(afterSecond.body.total).toBe(3);
    const [newFlood, newStorm, oldFlood] = afterSecond.body.items;
    expect(oldFlood).toEqual(flood);
    expect([newFlood.peril, newStorm.peril]).toEqual(['flood', 'storm']);
    expect(newFlood.evaluation_id).toBe(newStorm.evaluation_id);
    expect(newFlood.evaluation_id).not.toBe(flood.evaluation_id);
    expect(newFlood.evaluated_at).toBe(newStorm.evaluated_at);
    expect(newFlood.evaluated_at > flood.evaluated_at).toBe(true);
    // Flood was already paid for this depth: its item has no payout.
    expect(Object.keys(newFlood).sort()).toEqual(HISTORY_ITEM_KEYS);
    expect(newFlood).toMatchObject({
      breached: true,
      severity: 0.2,
      observed_value: 180,
      coverage: { days_with_reading: 5, days_in_window: 6 },
    });
    expect(newStorm).toMatchObject({
      trigger_index: 'max_wind_speed_ms',
      observed_value: 28,
      threshold: 25,
      breached: true,
      severity: 0.2,
      coverage: { days_with_reading: 1, days_in_window: 6 },
      payout: { payout_id: expect.any(String), amount: 2000, currency: 'USD', status: 'approved' },
    });
    expect(newStorm.payout.payout_id).not.toBe(flood.payout.payout_id);

    // Settling the flood payout shows in its item, and only there.
    const settled = await api.post(`/insurance/payouts/${flood.payout.payout_id}/settle`, insurer, undefined);
    expect(settled.status).toBe(200);
    const afterSettle = await history(policy.policy_id);
    expect(afterSettle.body.items[2].payout).toEqual({
      payout_id: flood.payout.payout_id,
      amount: 2000,
      currency: 'USD',
      status: 'settled',
      settled_at: settled.body.settled_at,
    });
    expect(afterSettle.body.items[2].payout.settled_at).toMatch(ISO_TIMESTAMP);
    expect(afterSettle.body.items[1].payout).toEqual({ ...newStorm.payout, status: 'approved' });

    // Pages of the same order.
    const pages = await Promise.all([1, 2, 3].map((page) => history(policy.policy_id, `?page=${page}&page_size=2`)));
    expect(pages.map((page) => page.body.items.length)).toEqual([2, 1, 0]);
    expect(pages.flatMap((page) => page.body.items)).toEqual(afterSettle.body.items);
    for (const [index, page] of pages.entries())
      expect(page.body).toMatchObject({ policy_id: policy.policy_id, total: 3, page: index + 1, page_size: 2 });
    expect((await history(policy.policy_id, '?page_size=100')).body.items).toHaveLength(3);
  });

  it('adds nothing for an evaluation that found no data: skipped is not evaluated', async () => {
    const policy = await issue(await farmWithField());
    const response = await evaluate(policy.policy_id);
    expect(response.body).toMatchObject({
      triggers_evaluated: 0,
      triggers_total: 2,
      skipped_perils: ['flood', 'storm'],
    });
    expect((await history(policy.policy_id)).body).toMatchObject({ items: [], total: 0 });
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=x', 'page'],
    ['?page_size=0', 'page_size'],
    ['?page_size=101', 'page_size'],
    ['?page_size=1.5', 'page_size'],
    ['?peril=flood', 'peril'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const policy = await issue(await farmWithField());
    const response = await history(policy.policy_id, query);
    expectProblem(response, 400, 'validation_failed');
    expect(errorPaths(response)).toContain(path);
  });

  it('answers 404 to another organization and an unknown policy, 403 to a data provider, and rejected writes change nothing', async () => {
    const field = await farmWithField();
    const policy = await issue(field);
    await floodRain(field, policy.term_start);
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const [item] = (await history(policy.policy_id)).body.items;
    const before = await eventCount();
    expectProblem(await history(policy.policy_id, '', otherInsurer), 404, 'not_found');
    expectProblem(await history(UNKNOWN_POLICY), 404, 'not_found');
    expectProblem(await history(policy.policy_id, '', dataProvider), 403, 'forbidden');
    expect((await history(policy.policy_id, '', auditor)).body.total).toBe(1);
    expectProblem(await evaluate(policy.policy_id, {}, otherInsurer), 404, 'not_found');
    expectProblem(await evaluate(policy.policy_id, {}, auditor), 403, 'forbidden');
    expectProblem(
      await api.post(`/insurance/payouts/${item.payout.payout_id}/settle`, otherInsurer, undefined),
      404,
      'not_found',
    );
    expect(await eventCount()).toBe(before);
    expect((await history(policy.policy_id)).body.items[0].payout.status).toBe('approved');
  });
});

describe('GET /insurance/policies/{policy_id}/events (audit)', () => {
  /** A claimed policy issued under a known correlation id, with its issue response. */
  const claimedPolicy = async () => {
    const field = await farmWithField();
    const issued = await issueResponse(field, {}, insurer, { 'x-correlation-id': 'audit-saga-1' });
    expect(issued.status).toBe(201);
    await floodRain(field, issued.body.term_start);
    expect((await evaluate(issued.body.policy_id)).body.policy_status).toBe('claimed');
    return issued;
  };
  const events = (policyId: string, query = '', caller: Caller = insurer) =>
    api.get(`/insurance/policies/${policyId}/events${query}`, caller);

  it('replays the stream in revision order from PolicyIssued, with every event’s metadata', async () => {
    const issued = await claimedPolicy();
    const policyId = issued.body.policy_id;
    const response = await events(policyId);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['items', 'page', 'page_size', 'policy_id', 'total']);
    expect(response.body).toMatchObject({ policy_id: policyId, total: 5, page: 1, page_size: 20 });
    const items = response.body.items as any[];
    expect(items.map((item) => item.revision)).toEqual([0, 1, 2, 3, 4]);
    // Storm has no wind readings: the evaluation records it as skipped.
    expect(items.map((item) => item.type)).toEqual([
      'PolicyIssued',
      'TriggerEvaluated',
      'TriggerBreached',
      'PayoutApproved',
      'TriggerEvaluationSkipped',
    ]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['data', 'metadata', 'occurred_at', 'revision', 'type']);
      expect(Object.keys(item.metadata).sort()).toEqual(METADATA_KEYS);
      expect(item.metadata).toMatchObject({
        event_id: expect.any(String),
        occurred_at: expect.stringMatching(ISO_TIMESTAMP),
        actor: 'underwriter-q',
        organization_id: 'org-q',
        // PolicyIssued carries its product and sheet since schema version 2.
        schema_version: item.type === 'PolicyIssued' ? 2 : 1,
        platform_version: issued.body.platform_version,
      });
      expect(item.occurred_at).toBe(item.metadata.occurred_at);
    }
    expect(new Set(items.map((item) => item.metadata.event_id)).size).toBe(5);
    const [policyIssued, evaluated, , approved, skipped] = items;
    // Issue: the caller's correlation id, caused by the issue request.
    expect(policyIssued.metadata).toMatchObject({
      correlation_id: 'audit-saga-1',
      causation_id: issued.headers.get('x-request-id'),
    });
    expect(policyIssued.occurred_at).toBe(issued.body.issued_at);
    expect(policyIssued.data).toMatchObject({
      policy_id: policyId,
      organization_id: 'org-q',
      farm_id: issued.body.farm_id,
    });
    expect(evaluated.data).toMatchObject({ peril: 'flood' });
    expect(approved.data).toMatchObject({ peril: 'flood', amount_minor: 200000, currency: 'USD' });
    expect(skipped.data).toMatchObject({ perils: ['storm'], evaluation_id: evaluated.data.evaluation_id });
    // The evaluation's events share one request.
    expect(new Set(items.slice(1).map((item) => item.metadata.correlation_id)).size).toBe(1);
    expect(items[1].metadata.correlation_id).not.toBe('audit-saga-1');
  });

  it('pages the stream; a page past the end is empty with the true total', async () => {
    const policyId = (await claimedPolicy()).body.policy_id;
    const second = await events(policyId, '?page=2&page_size=3');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ total: 5, page: 2, page_size: 3 });
    expect(second.body.items.map((item: { revision: number }) => item.revision)).toEqual([3, 4]);
    const past = await events(policyId, '?page=3&page_size=3');
    expect(past.body).toEqual({ policy_id: policyId, items: [], total: 5, page: 3, page_size: 3 });
    for (const query of ['?page=0', '?page_size=101', '?page_size=0', '?page=one']) {
      expectProblem(await events(policyId, query), 400, 'validation_failed');
    }
  });

  it('shows the stream to the organization’s auditor and insurer and to admins; 404 elsewhere, 403 to a data provider', async () => {
    const policyId = (await claimedPolicy()).body.policy_id;
    const asInsurer = await events(policyId);
    const asAuditor = await events(policyId, '', auditor);
    expect(asAuditor.status).toBe(200);
    expect(asAuditor.body).toEqual(asInsurer.body);
    const asAdmin = await events(policyId, '', otherAdmin);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual(asInsurer.body);
    expectProblem(await events(policyId, '', otherInsurer), 404, 'not_found');
    expectProblem(await events(policyId, '', otherAuditor), 404, 'not_found');
    expectProblem(await events(UNKNOWN_POLICY, '', auditor), 404, 'not_found');
    expectProblem(await events(policyId, '', dataProvider), 403, 'forbidden');
    expectProblem(await events(policyId, '', { sub: 'orphan', roles: ['auditor'] }), 403, 'organization_required');
  });
});

describe('npm run audit -- <policy_id>', () => {
  const runAudit = (policyId: string) =>
    promisify(execFile)('npm', ['run', '--silent', 'audit', '--', policyId], {
      cwd: repositoryRoot,
      env: { ...process.env, DATABASE_URL: suite.databaseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' },
      timeout: 60_000,
    });

  it('prints each event of the stream with the state after it, ending claimed', async () => {
    const field = await farmWithField();
    const policy = await issue(field);
    await floodRain(field, policy.term_start);
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const { stdout } = await runAudit(policy.policy_id);
    const lines = stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('#'))).toEqual([
      expect.stringMatching(/^#0 PolicyIssued at \S+ by underwriter-q$/),
      expect.stringMatching(/^#1 TriggerEvaluated /),
      expect.stringMatching(/^#2 TriggerBreached /),
      expect.stringMatching(/^#3 PayoutApproved /),
      expect.stringMatching(/^#4 TriggerEvaluationSkipped /),
    ]);
    const states = lines
      .filter((line) => line.startsWith('  state after: '))
      .map((line) => JSON.parse(line.slice('  state after: '.length)));
    expect(states.map((state) => state.status)).toEqual(['active', 'active', 'active', 'claimed', 'claimed']);
    expect(states.at(-1)).toMatchObject({ status: 'claimed', paid: 2000 });
  }, 90_000);

  it('fails with a message for a policy that is not in the log', async () => {
    const failure = await runAudit(UNKNOWN_POLICY).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`no policy ${UNKNOWN_POLICY}`);
  }, 90_000);
});
