import { describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { DEFAULT_PRODUCT, ISO_TIMESTAMP, POLICY_KEYS } from '../support/seed-shapes';
import { serviceUnderTest } from '../support/service-under-test';

// The insurance commands (quote, issue, evaluate, lapse, settle) over real HTTP against the all-in-one
// service on real PostgreSQL. The service runs on the real clock, so every date is relative to today.

const QUOTE_KEYS = [
  'breakdown',
  'currency',
  'data_sources',
  'farm_id',
  'field_id',
  'perils',
  'platform_version',
  'premium',
  'product',
  'rate',
  'sum_insured',
  'term_end',
  'term_start',
];
const EVALUATION_KEYS = [
  'as_of',
  'currency',
  'events',
  'is_backtest',
  'payout_count',
  'policy_id',
  'policy_status',
  'skipped_perils',
  'skipped_reasons',
  'total_payout',
  'triggers_evaluated',
  'triggers_total',
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

// The monitor would evaluate policies on its own and race the assertions on what evaluations paid.
const suite = serviceUnderTest('e2e_insurance_commands', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter-a', org: 'org-a', roles: ['insurer'] };
const otherInsurer: Caller = { sub: 'underwriter-b', org: 'org-b', roles: ['insurer'] };
// The data provider of the insurer's own organization: a policy that names no source reads only the field
// readings its own organization posted.
const dataProvider: Caller = { sub: 'weather-feed', org: insurer.org, roles: ['data_provider'] };
const farmer = (): Caller => ({ sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' });

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

const streamEvents = async (stream: string): Promise<{ type: string; data: any }[]> =>
  (
    await query<{ event_type: string; data: unknown }>(
      'select event_type, data from events_json where stream_id = $1 order by stream_revision',
      [stream],
    )
  ).rows.map((row) => ({ type: row.event_type, data: row.data }));

/** Daily readings of one index from `start`, pushed as a data provider does; a date already read is
 *  corrected in place. */
/** A farmer's farm with one registered field. */
const farmWithField = async (farmBody: Record<string, unknown> = { name: 'Shamba' }) => {
  const owner = farmer();
  const farm = await api.post('/farms/create', owner, farmBody);
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${++sequence}`,
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    crop_type: 'maize',
  });
  expect(field.status).toBe(201);
  return { owner, farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const issue = async (
  field: { farm_id: string; field_id: string },
  overrides: Record<string, unknown> = {},
  caller: Caller = insurer,
) => {
  const response = await api.post('/insurance/policies', caller, {
    farm_id: field.farm_id,
    field_id: field.field_id,
    perils: ['flood', 'storm'],
    sum_insured: 10000,
    currency: 'USD',
    term_start: addDays(today(), -5),
    term_end: addDays(today(), 90),
    ...overrides,
  });
  expect(response.status).toBe(201);
  return response.body;
};

const evaluate = (policyId: string, body: unknown = {}, caller: Caller = insurer) =>
  api.post(`/insurance/policies/${policyId}/evaluate`, caller, body);

/** A policy on flood and storm whose flood trigger is breached: 5-day rainfall 180 mm → severity 0.2. */
const breachedPolicy = async () => {
  const field = await farmWithField();
  const policy = await issue(field);
  await recordReadings(api, dataProvider, field, 'rainfall_mm', policy.term_start, [40, 40, 40, 40, 20]);
  return { field, policy };
};

describe('POST /insurance/quote (endpoint 1)', () => {
  it('prices at the base rates, with the seed shape field by field', async () => {
    const field = await farmWithField();
    const response = await api.post('/insurance/quote', insurer, {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['drought', 'flood', 'storm'],
      sum_insured: 10000,
    });
    expect(response.status).toBe(200);
    const quote = response.body;
    expect(Object.keys(quote).sort()).toEqual(QUOTE_KEYS);
    // The default term is one year from today: 365 days, or 366 when it holds a 29 February, and a term
    // pays its exposure, term days / 365, of the annual base rates 0.05 + 0.03 + 0.02. Over 366 days:
    // 0.1 × 366/365 × 1,000,000 cents = 100,273.97… → 100,274, split 5 : 3 : 2 as 50,137 / 30,082 /
    // 20,055 (the last cent to the largest remainder, storm's 0.8).
    const termDays = (Date.parse(quote.term_end) - Date.parse(quote.term_start)) / 86_400_000 + 1;
    const [drought, flood, storm, rate, premium] =
      termDays === 365
        ? [[0.05, 500], [0.03, 300], [0.02, 200], 0.1, 1000]
        : [[0.050137, 501.37], [0.030082, 300.82], [0.020055, 200.55], 0.100274, 1002.74];
    const basePrice = ([perilRate, perilPremium]: number[]) => ({
      rate: perilRate,
      premium: perilPremium,
      method: 'base_rate',
      seasons_used: 0,
      credibility: 0,
    });
    expect(quote).toEqual({
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['drought', 'flood', 'storm'],
      sum_insured: 10000,
      currency: 'USD',
      rate,
      premium,
      breakdown: { drought: basePrice(drought), flood: basePrice(flood), storm: basePrice(storm) },
      term_start: today(),
      term_end: expect.stringMatching(DATE),
      // No source named and no deployment default: each peril reads the insurer's own field readings.
      data_sources: Object.fromEntries(
        (['drought', 'flood', 'storm'] as const).map((peril) => [
          peril,
          {
            source_id: `organization-fields:${insurer.org}`,
            kind: 'field',
            index: peril === 'storm' ? 'wind_speed_ms' : 'rainfall_mm',
            location: `${field.farm_id}/${field.field_id}`,
          },
        ]),
      ),
      product: DEFAULT_PRODUCT,
      platform_version: expect.any(String),
    });
    // One year from today, both ends included.
    const nextYear = `${Number(today().slice(0, 4)) + 1}${today().slice(4)}`;
    expect(quote.term_end).toBe(addDays(nextYear.endsWith('02-29') ? addDays(nextYear, -1) : nextYear, -1));
  });

  it('splits an odd premium so the per-peril premiums add up to it exactly, in the farm currency', async () => {
    const field = await farmWithField({ name: 'Irrigated', has_irrigation: true, currency: 'KES' });
    const response = await api.post('/insurance/quote', insurer, {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['drought', 'flood', 'vegetation_stress'],
      sum_insured: 333.33,
      // 365 days: the annual rates apply as they are.
      term_start: today(),
      term_end: addDays(today(), 364),
    });
    expect(response.status).toBe(200);
    const quote = response.body;
    expect(quote.currency).toBe('KES');
    // Irrigation: drought 0.05 × 0.6 = 0.03; total 0.03 + 0.03 + 0.04 = 0.10 → 33.333 → 33.33.
    expect(quote.breakdown.drought.rate).toBe(0.03);
    expect(quote.rate).toBe(0.1);
    expect(quote.premium).toBe(33.33);
    const parts = Object.values(quote.breakdown as Record<string, { premium: number }>);
    expect(parts).toHaveLength(3);
    expect(parts.reduce((sum, part) => sum + Math.round(part.premium * 100), 0)).toBe(3333);
  });

  it('prices exactly like the policy issued with the same inputs', async () => {
    const field = await farmWithField();
    const inputs = {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['drought', 'storm'],
      sum_insured: 1234.56,
      currency: 'USD',
      term_start: today(),
      term_end: addDays(today(), 120),
    };
    const quote = await api.post('/insurance/quote', insurer, inputs);
    expect(quote.status).toBe(200);
    const policy = await api.post('/insurance/policies', insurer, inputs);
    expect(policy.status).toBe(201);
    expect(policy.body.premium).toBe(quote.body.premium);
    expect(quote.body).toMatchObject({ term_start: inputs.term_start, term_end: inputs.term_end });
  });

  it('refuses a caller without the insurer role or without an organization (403), recording nothing', async () => {
    const field = await farmWithField();
    const body = { farm_id: field.farm_id, field_id: field.field_id, perils: ['flood'], sum_insured: 100 };
    const before = await eventCount();
    expectProblem(
      await api.post('/insurance/quote', { sub: 'reader', org: 'org-a', roles: [] }, body),
      403,
      'forbidden',
    );
    expectProblem(
      await api.post('/insurance/quote', { sub: 'orphan', roles: ['insurer'] }, body),
      403,
      'organization_required',
    );
    expect(await eventCount()).toBe(before);
  });

  it('answers 404 for an unknown farm and 422 farm_inactive for a deleted one', async () => {
    const body = { field_id: 'plot', perils: ['flood'], sum_insured: 100 };
    expectProblem(
      await api.post('/insurance/quote', insurer, { ...body, farm_id: '0190f1e2-0000-7000-8000-000000000000' }),
      404,
      'not_found',
    );
    const field = await farmWithField();
    expect((await api.delete(`/farms/${field.farm_id}`, field.owner)).status).toBe(204);
    expectProblem(
      await api.post('/insurance/quote', insurer, { ...body, farm_id: field.farm_id }),
      422,
      'farm_inactive',
    );
  });

  it('answers 400 for bad input', async () => {
    const field = await farmWithField();
    const response = await api.post('/insurance/quote', insurer, {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['hail'],
      sum_insured: -1,
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      'perils.0',
      'sum_insured',
    ]);
  });
});

describe('POST /insurance/policies (endpoint 3)', () => {
  it('issues the policy with the seed shape, links the organization to the farm, and is readable at once', async () => {
    const field = await farmWithField({ name: 'Mto Farm' });
    const termStart = addDays(today(), 1);
    const termEnd = addDays(today(), 100);
    const response = await api.post('/insurance/policies', insurer, {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['drought', 'flood'],
      sum_insured: 5000,
      currency: 'USD',
      term_start: termStart,
      term_end: termEnd,
    });
    expect(response.status).toBe(201);
    const policy = response.body;
    expect(Object.keys(policy).sort()).toEqual(POLICY_KEYS);
    // No source named and no deployment default: both perils read the insurer's own rainfall of the field.
    const ownRainfall = {
      source_id: 'organization-fields:org-a',
      kind: 'field',
      index: 'rainfall_mm',
      location: `${field.farm_id}/${field.field_id}`,
    };
    expect(policy).toEqual({
      policy_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      organization_id: 'org-a',
      environment: 'sandbox',
      farm_id: field.farm_id,
      field_id: field.field_id,
      farm_name: 'Mto Farm',
      field_name: 'North plot',
      field_area_ha: 2.5,
      field_location: '-1.29,36.82',
      crop_type: 'maize',
      sum_insured: 5000,
      currency: 'USD',
      // 100 days of drought and flood: (0.05 + 0.03) × 100/365 × 5,000 = 109.589… → 109.59.
      premium: 109.59,
      perils: ['drought', 'flood'],
      product: DEFAULT_PRODUCT,
      triggers: [
        {
          peril: 'drought',
          trigger_index: 'cumulative_rainfall_mm',
          current_index_reading: null,
          trigger_threshold: 200,
          comparison: 'lte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownRainfall,
        },
        {
          peril: 'flood',
          trigger_index: 'max_5day_rainfall_mm',
          current_index_reading: null,
          trigger_threshold: 150,
          comparison: 'gte',
          data_available: false,
          skipped_reason: 'no_data',
          data_source: ownRainfall,
        },
      ],
      status: 'active',
      issued_at: expect.stringMatching(ISO_TIMESTAMP),
      term_start: termStart,
      term_end: termEnd,
      platform_version: expect.any(String),
      next_monitoring_date: termStart,
    });
    expect(response.headers.get('location')).toBe(`/insurance/policies/${policy.policy_id}`);
    expect(response.headers.get('consistency-token')).toMatch(/^\d+\.\d+$/);

    const issued = await streamEvents(`policy-${policy.policy_id}`);
    expect(issued.map((event) => event.type)).toEqual(['PolicyIssued']);
    expect(issued[0]!.data).toMatchObject({
      sum_insured_minor: 500000,
      premium_minor: 10959,
      settlement_period_days: 30,
    });

    // The insurer's organization reads the farm through the farmer's grant, and sees only its own entry.
    const farm = await api.get(`/farms/${field.farm_id}`, insurer);
    expect(farm.status).toBe(200);
    expect(farm.body.organizations).toEqual([
      { organization_id: 'org-a', relationship: 'insurance', linked_at: expect.any(String) },
    ]);
  });

  it('grants nothing by issuing: the farm stream holds only what the farmer did', async () => {
    const field = await farmWithField();
    await issue(field);
    await issue(field);
    const types = (await streamEvents(`farm-${field.farm_id}`)).map((event) => event.type);
    expect(types).toEqual(['FarmRegistered', 'FarmAccessGranted', 'FieldRegistered']);
  });

  describe('refuses a term it may not cover with 422, recording nothing', () => {
    const cases: [string, number, number, string][] = [
      ['term_end on term_start', 10, 10, 'invalid_term'],
      ['term_end before term_start', 10, 5, 'invalid_term'],
      ['a term of 367 days', 1, 367, 'invalid_term'],
      ['retroactive cover', -30, 60, 'retroactive_cover'],
    ];
    it.each(cases)('%s', async (_label, startOffset, endOffset, code) => {
      const field = await farmWithField();
      const before = await eventCount();
      const response = await api.post('/insurance/policies', insurer, {
        farm_id: field.farm_id,
        field_id: field.field_id,
        perils: ['flood'],
        sum_insured: 1000,
        term_start: addDays(today(), startOffset),
        term_end: addDays(today(), endOffset),
      });
      expectProblem(response, 422, code);
      expect(await eventCount()).toBe(before);
    });
  });

  it('accepts a term of exactly 366 days', async () => {
    const field = await farmWithField();
    await issue(field, { term_start: today(), term_end: addDays(today(), 365) });
  });

  describe('refuses bad input with 400 on the field, recording nothing', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown peril', { perils: ['hail'] }, 'perils.0'],
      ['duplicate perils', { perils: ['flood', 'flood'] }, 'perils'],
      ['no perils', { perils: [] }, 'perils'],
      ['an unknown field', { acres: 10 }, 'acres'],
      ['a currency that is not ISO 4217', { currency: 'XYZ' }, 'currency'],
      ['a zero sum insured', { sum_insured: 0 }, 'sum_insured'],
      ['a negative sum insured', { sum_insured: -100 }, 'sum_insured'],
      ['cents on a currency without them', { currency: 'JPY', sum_insured: 1000.5 }, 'sum_insured'],
      ['an invalid date', { term_end: '2026-02-30' }, 'term_end'],
      ['a missing farm_id', { farm_id: undefined }, 'farm_id'],
    ];
    it.each(cases)('%s', async (_label, override, path) => {
      const field = await farmWithField();
      const before = await eventCount();
      const response = await api.post('/insurance/policies', insurer, {
        farm_id: field.farm_id,
        field_id: field.field_id,
        perils: ['flood'],
        sum_insured: 1000,
        term_start: today(),
        term_end: addDays(today(), 30),
        ...override,
      });
      expectProblem(response, 400, 'validation_failed');
      expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      expect(await eventCount()).toBe(before);
    });
  });

  it('refuses a caller without the insurer role (403) and an unknown or inactive farm, recording nothing', async () => {
    const field = await farmWithField();
    const body = {
      farm_id: field.farm_id,
      field_id: field.field_id,
      perils: ['flood'],
      sum_insured: 1000,
      term_start: today(),
      term_end: addDays(today(), 30),
    };
    const before = await eventCount();
    expectProblem(await api.post('/insurance/policies', field.owner, body), 403, 'forbidden');
    expectProblem(
      await api.post('/insurance/policies', { sub: 'orphan', roles: ['insurer'] }, body),
      403,
      'organization_required',
    );
    expectProblem(
      await api.post('/insurance/policies', insurer, { ...body, farm_id: '0190f1e2-0000-7000-8000-000000000001' }),
      404,
      'not_found',
    );
    expect(await eventCount()).toBe(before);
    expect((await api.delete(`/farms/${field.farm_id}`, field.owner)).status).toBe(204);
    const afterDelete = await eventCount();
    expectProblem(await api.post('/insurance/policies', insurer, body), 422, 'farm_inactive');
    expect(await eventCount()).toBe(afterDelete);
  });
});

describe('POST /insurance/policies/{policy_id}/evaluate (endpoint 5)', () => {
  it('pays a flood breach severity × sum insured, a deeper breach only the difference, an unchanged one nothing', async () => {
    const { field, policy } = await breachedPolicy();
    const first = await evaluate(policy.policy_id);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(EVALUATION_KEYS);
    expect(first.body).toEqual({
      policy_id: policy.policy_id,
      as_of: today(),
      events: [
        {
          peril: 'flood',
          index: 'max_5day_rainfall_mm',
          observed_value: 180,
          threshold: 150,
          breached: true,
          severity: 0.2,
          // Five days read of the six from term start to today: a flood runs on the days present.
          coverage: { days_with_reading: 5, days_in_window: 6 },
        },
      ],
      total_payout: 2000,
      currency: 'USD',
      is_backtest: false,
      payout_count: 1,
      policy_status: 'claimed',
      triggers_evaluated: 1,
      triggers_total: 2,
      skipped_perils: ['storm'],
      skipped_reasons: { storm: 'no_data' },
    });
    expect(first.body.triggers_evaluated + first.body.skipped_perils.length).toBe(first.body.triggers_total);
    expect(first.headers.get('consistency-token')).toMatch(/^\d+\.\d+$/);

    // A correction makes the 5-day sum 225 mm: severity 0.5, so 5000 in all, 3000 more.
    await recordReadings(api, dataProvider, field, 'rainfall_mm', addDays(policy.term_start, 4), [65]);
    const deeper = await evaluate(policy.policy_id);
    expect(deeper.status).toBe(200);
    expect(deeper.body).toMatchObject({ total_payout: 3000, payout_count: 1, policy_status: 'claimed' });
    expect(deeper.body.events).toEqual([expect.objectContaining({ observed_value: 225, severity: 0.5 })]);

    const unchanged = await evaluate(policy.policy_id);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ total_payout: 0, payout_count: 0, triggers_evaluated: 1 });
    expect(unchanged.body.events).toEqual([expect.objectContaining({ breached: true, severity: 0.5 })]);

    const payouts = (await streamEvents(`policy-${policy.policy_id}`)).filter(
      (event) => event.type === 'PayoutApproved',
    );
    expect(payouts.map((event) => event.data.amount_minor)).toEqual([200000, 300000]);
  });

  it('records an evaluation without data as skipped, never as not breached', async () => {
    const field = await farmWithField();
    const policy = await issue(field);
    const response = await evaluate(policy.policy_id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      events: [],
      total_payout: 0,
      payout_count: 0,
      triggers_evaluated: 0,
      triggers_total: 2,
      skipped_perils: ['flood', 'storm'],
      skipped_reasons: { flood: 'no_data', storm: 'no_data' },
      policy_status: 'active',
    });
    const types = (await streamEvents(`policy-${policy.policy_id}`)).map((event) => event.type);
    expect(types).toEqual(['PolicyIssued', 'TriggerEvaluationSkipped']);
  });

  describe('a drought settles only on a complete-enough window (SPEC §7 Completeness)', () => {
    // A closed week of cover, as far back as issue allows: the drought can be declared at once.
    const closedWeek = { perils: ['drought'], term_start: addDays(today(), -7), term_end: addDays(today(), -1) };

    it('skips a drought read on one day of seven as incomplete_data, and pays nothing', async () => {
      const field = await farmWithField();
      const policy = await issue(field, closedWeek);
      await recordReadings(api, dataProvider, field, 'rainfall_mm', addDays(today(), -4), [0]);
      const response = await evaluate(policy.policy_id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        events: [],
        total_payout: 0,
        payout_count: 0,
        triggers_evaluated: 0,
        skipped_perils: ['drought'],
        skipped_reasons: { drought: 'incomplete_data' },
        policy_status: 'active',
      });
      const stream = await streamEvents(`policy-${policy.policy_id}`);
      expect(stream.map((event) => event.type)).toEqual(['PolicyIssued', 'TriggerEvaluationSkipped']);
      expect(stream[1]!.data).toMatchObject({ perils: ['drought'], reasons: { drought: 'incomplete_data' } });
      expect(stream[0]!.data.triggers[0]).toMatchObject({ peril: 'drought', min_coverage: 0.9 });
    });

    it('pays a drought read on every day, and records the coverage it was judged on', async () => {
      const field = await farmWithField();
      const policy = await issue(field, closedWeek);
      await recordReadings(api, dataProvider, field, 'rainfall_mm', policy.term_start, Array(7).fill(0));
      const response = await evaluate(policy.policy_id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        events: [
          {
            peril: 'drought',
            observed_value: 0,
            breached: true,
            severity: 1,
            coverage: { days_with_reading: 7, days_in_window: 7 },
          },
        ],
        total_payout: 10000,
        skipped_perils: [],
        skipped_reasons: {},
      });
      const evaluated = (await streamEvents(`policy-${policy.policy_id}`)).find(
        (event) => event.type === 'TriggerEvaluated',
      );
      expect(evaluated!.data).toMatchObject({
        readings_used: 7,
        coverage: { days_with_reading: 7, days_in_window: 7 },
      });
    });
  });

  it('evaluates live when as_of is today, with an empty body or none at all', async () => {
    const { policy } = await breachedPolicy();
    const live = await evaluate(policy.policy_id, { as_of: today() });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ is_backtest: false, total_payout: 2000 });
    const noBody = await api.request('POST', `/insurance/policies/${policy.policy_id}/evaluate`, { caller: insurer });
    expect(noBody.status).toBe(200);
    expect(noBody.body).toMatchObject({ is_backtest: false, total_payout: 0, payout_count: 0 });
  });

  it('backtests a past date without touching the stream', async () => {
    const { policy } = await breachedPolicy();
    const before = await streamEvents(`policy-${policy.policy_id}`);
    const response = await evaluate(policy.policy_id, { as_of: addDays(today(), -1) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      policy_id: policy.policy_id,
      as_of: addDays(today(), -1),
      events: [
        {
          peril: 'flood',
          index: 'max_5day_rainfall_mm',
          observed_value: 180,
          threshold: 150,
          breached: true,
          severity: 0.2,
          coverage: { days_with_reading: 5, days_in_window: 5 },
        },
      ],
      total_payout: 2000,
      currency: 'USD',
      is_backtest: true,
      policy_status: 'active',
      triggers_evaluated: 1,
      triggers_total: 2,
      skipped_perils: ['storm'],
      skipped_reasons: { storm: 'no_data' },
    });
    expect(response.headers.get('consistency-token')).toBeNull();
    expect(await streamEvents(`policy-${policy.policy_id}`)).toEqual(before);
  });

  it('refuses as_of in the future (422), a bad as_of or an unknown field (400), recording nothing', async () => {
    const { policy } = await breachedPolicy();
    const before = await eventCount();
    expectProblem(await evaluate(policy.policy_id, { as_of: addDays(today(), 1) }), 422, 'as_of_in_future');
    expectProblem(await evaluate(policy.policy_id, { as_of: 'yesterday' }), 400, 'validation_failed');
    expectProblem(await evaluate(policy.policy_id, { as_of: today(), force: true }), 400, 'validation_failed');
    expect(await eventCount()).toBe(before);
  });

  it('refuses to evaluate a lapsed policy live (422) but still backtests it', async () => {
    const { policy } = await breachedPolicy();
    expect(
      (await api.post(`/insurance/policies/${policy.policy_id}/lapse`, insurer, { reason: 'unpaid' })).status,
    ).toBe(200);
    // The policy's own stream: the programme's book keeper releases the lapsed exposure on its own stream
    // meanwhile, so the whole log may grow.
    const before = await streamEvents(`policy-${policy.policy_id}`);
    expectProblem(await evaluate(policy.policy_id), 422, 'policy_not_evaluable');
    expect(await streamEvents(`policy-${policy.policy_id}`)).toEqual(before);
    const backtest = await evaluate(policy.policy_id, { as_of: addDays(today(), -1) });
    expect(backtest.status).toBe(200);
    expect(backtest.body).toMatchObject({ is_backtest: true, policy_status: 'lapsed' });
  });

  it('answers 404 for an unknown policy and 403 without the insurer role', async () => {
    const { policy } = await breachedPolicy();
    expectProblem(await evaluate('0190f1e2-0000-7000-8000-000000000002'), 404, 'not_found');
    expectProblem(
      await evaluate(policy.policy_id, {}, { sub: 'provider', org: 'org-a', roles: ['data_provider'] }),
      403,
      'forbidden',
    );
  });

  it('pays once when 50 evaluations of a breached policy race, and answers every one', async () => {
    const { policy } = await breachedPolicy();
    // One signed token and connections opened beforehand, so the 50 requests reach the server together.
    const token = await tokenFor(insurer);
    const path = `/insurance/policies/${policy.policy_id}/evaluate`;
    const burst = (body: unknown) =>
      Promise.all(Array.from({ length: 50 }, () => api.request('POST', path, { token, body })));
    for (const warmUp of await burst({ as_of: addDays(today(), 1) })) expect(warmUp.status).toBe(422);
    const responses = await burst({});
    // Commands on one policy take turns in the process (issue 11, fault 7): none has to be retried.
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const succeeded = responses;
    expect(succeeded.reduce((sum, response) => sum + response.body.total_payout, 0)).toBe(2000);
    const events = await streamEvents(`policy-${policy.policy_id}`);
    const payouts = events.filter((event) => event.type === 'PayoutApproved');
    expect(payouts).toHaveLength(1);
    expect(payouts[0]!.data.amount_minor).toBe(200000);
    expect(events.filter((event) => event.type === 'TriggerEvaluated')).toHaveLength(succeeded.length);
  });
});

describe('POST /insurance/policies/{policy_id}/lapse', () => {
  it('lapses an active policy without payouts: status lapsed, no more monitoring', async () => {
    const policy = await issue(await farmWithField());
    const response = await api.post(`/insurance/policies/${policy.policy_id}/lapse`, insurer, {
      reason: 'premium not paid',
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(POLICY_KEYS.filter((key) => key !== 'next_monitoring_date'));
    expect(response.body).toMatchObject({ policy_id: policy.policy_id, status: 'lapsed' });
    const events = await streamEvents(`policy-${policy.policy_id}`);
    expect(events.at(-1)).toMatchObject({ type: 'PolicyLapsed', data: { reason: 'premium not paid' } });
  });

  it('refuses a claimed or lapsed policy (422), a missing reason (400), recording nothing', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).body.policy_status).toBe('claimed');
    const lapsed = await issue(await farmWithField());
    expect((await api.post(`/insurance/policies/${lapsed.policy_id}/lapse`, insurer, { reason: 'x' })).status).toBe(
      200,
    );
    const before = await eventCount();
    expectProblem(
      await api.post(`/insurance/policies/${policy.policy_id}/lapse`, insurer, { reason: 'unpaid' }),
      422,
      'policy_not_lapsable',
    );
    expectProblem(
      await api.post(`/insurance/policies/${lapsed.policy_id}/lapse`, insurer, { reason: 'again' }),
      422,
      'policy_not_lapsable',
    );
    expectProblem(
      await api.post(`/insurance/policies/${lapsed.policy_id}/lapse`, insurer, {}),
      400,
      'validation_failed',
    );
    expectProblem(
      await api.post(`/insurance/policies/${lapsed.policy_id}/lapse`, insurer, { reason: '   ' }),
      400,
      'validation_failed',
    );
    expect(await eventCount()).toBe(before);
  });
});

describe('POST /insurance/payouts/{payout_id}/settle', () => {
  const payoutOf = async (policyId: string): Promise<string> => {
    const approved = (await streamEvents(`policy-${policyId}`)).find((event) => event.type === 'PayoutApproved');
    return approved!.data.payout_id;
  };

  it('settles an approved payout once; settling again answers the same and records nothing', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const payoutId = await payoutOf(policy.policy_id);
    const response = await api.post(`/insurance/payouts/${payoutId}/settle`, insurer, undefined);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      payout_id: payoutId,
      amount: 2000,
      currency: 'USD',
      status: 'settled',
      settled_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const before = await eventCount();
    const again = await api.post(`/insurance/payouts/${payoutId}/settle`, insurer, undefined);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(response.body);
    expect(await eventCount()).toBe(before);
    const settled = (await streamEvents(`policy-${policy.policy_id}`)).filter(
      (event) => event.type === 'PayoutSettled',
    );
    expect(settled).toHaveLength(1);
  });

  it('refuses a body with an unknown field with 400 and leaves the payout unsettled', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const payoutId = await payoutOf(policy.policy_id);
    const before = await eventCount();
    const response = await api.post(`/insurance/payouts/${payoutId}/settle`, insurer, { amount: 1 });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ path: 'amount', message: 'unknown field' }]);
    expect(await eventCount()).toBe(before);
    expect((await api.post(`/insurance/payouts/${payoutId}/settle`, insurer, {})).status).toBe(200);
  });

  it('lets an admin settle any organization’s payout', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const payoutId = await payoutOf(policy.policy_id);
    const response = await api.post(
      `/insurance/payouts/${payoutId}/settle`,
      { sub: 'ops', org: 'org-ops', roles: ['admin'] },
      undefined,
    );
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('settled');
  });

  it('answers 404 for an unknown payout and 403 without the insurer role, recording nothing', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const payoutId = await payoutOf(policy.policy_id);
    const before = await eventCount();
    expectProblem(await api.post('/insurance/payouts/no-such-payout/settle', insurer, undefined), 404, 'not_found');
    expectProblem(
      await api.post(
        `/insurance/payouts/${payoutId}/settle`,
        { sub: 'auditor', org: 'org-a', roles: ['auditor'] },
        undefined,
      ),
      403,
      'forbidden',
    );
    expect(await eventCount()).toBe(before);
  });
});

describe('another organization', () => {
  it("posts readings on the insured field that never move the policy's evaluation (SPEC §7 Index data)", async () => {
    const field = await farmWithField();
    const policy = await issue(field);
    const otherProvider: Caller = { sub: 'feed-b', org: otherInsurer.org, roles: ['data_provider'] };
    // A breach in org-b's own field source: the policy, issued by org-a naming no source, does not read it.
    await recordReadings(api, otherProvider, field, 'rainfall_mm', policy.term_start, [100, 100, 100, 100, 100]);
    const untouched = await evaluate(policy.policy_id);
    expect(untouched.body).toMatchObject({
      payout_count: 0,
      skipped_perils: ['flood', 'storm'],
      skipped_reasons: { flood: 'no_data', storm: 'no_data' },
    });

    // The insurer's own provider's readings move it, and the evaluation names the data it read.
    await recordReadings(api, dataProvider, field, 'rainfall_mm', policy.term_start, [40, 40, 40, 40, 20]);
    const paid = await evaluate(policy.policy_id);
    expect(paid.body).toMatchObject({ total_payout: 2000, payout_count: 1 });
    const events = await streamEvents(`policy-${policy.policy_id}`);
    const ownData = {
      source_id: `organization-fields:${insurer.org}`,
      kind: 'field',
      index: 'rainfall_mm',
      location: `${field.farm_id}/${field.field_id}`,
    };
    expect(events[0]).toMatchObject({ type: 'PolicyIssued', data: { data_sources: { flood: ownData } } });
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    expect(evaluated?.data.provenance).toMatchObject({ ...ownData, readings_used: 5 });
    expect(evaluated?.data.provenance.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('gets 404 for the policy and its payouts everywhere, and changes nothing', async () => {
    const { policy } = await breachedPolicy();
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const payout = (await streamEvents(`policy-${policy.policy_id}`)).find((event) => event.type === 'PayoutApproved');
    const before = await eventCount();
    expectProblem(await evaluate(policy.policy_id, {}, otherInsurer), 404, 'not_found');
    expectProblem(await evaluate(policy.policy_id, { as_of: addDays(today(), -1) }, otherInsurer), 404, 'not_found');
    expectProblem(
      await api.post(`/insurance/policies/${policy.policy_id}/lapse`, otherInsurer, { reason: 'unpaid' }),
      404,
      'not_found',
    );
    expectProblem(
      await api.post(`/insurance/payouts/${payout!.data.payout_id}/settle`, otherInsurer, undefined),
      404,
      'not_found',
    );
    expect(await eventCount()).toBe(before);
  });
});
