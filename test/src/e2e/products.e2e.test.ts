import {
  KHARIF_DEFICIT_SHEET,
  PRF_JAN_FEB_SHEET,
  RAIN_DAYS_SHEET,
  RWBCIS_ORANGE_SHEET,
  SCIC_CORN_SHEET,
} from '@cropcover/domain/testing';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { ISO_TIMESTAMP } from '../support/seed-shapes';
import { serviceUnderTest } from '../support/service-under-test';

// Products (issue 24, TERM-SHEETS.md §2) through `npm start`: an insurer registers the example sheets
// A–D, issues a policy on each, posts a past season's readings and backtests it to the minor unit of the
// golden cases; a multi-phase sheet pays one phase live; every rule of §2.2 is refused once with its
// errors[] entry and records nothing; versions and retirement never reach an issued policy.

const PATH = '/insurance/products';
const SHA256 = /^sha256:[0-9a-f]{64}$/;

const insurer: Caller = { sub: 'designer', org: 'org-products', roles: ['insurer'] };
const auditor: Caller = { sub: 'checker', org: 'org-products', roles: ['auditor'] };
// A policy naming no source reads the field readings its own organization's data providers post.
const feed: Caller = { sub: 'products-feed', org: 'org-products', roles: ['data_provider'] };
const otherInsurer: Caller = { sub: 'rival', org: 'org-rival', roles: ['insurer'] };

// The monitor would evaluate the live policy on its own and race the assertions on what it paid.
const suite = serviceUnderTest('e2e_products', { MONITOR_ENABLED: 'false' });
const { api } = suite;
let sequence = 0;

type Sheet = Record<string, any>;

const fieldOf = async () => {
  const owner: Caller = { sub: `grower-${++sequence}-${Date.now()}`, givenName: 'Asha', familyName: 'Patil' };
  const farm = await api.post('/farms/create', owner, { name: 'Bagh' });
  expect(farm.status).toBe(201);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `orchard-${sequence}`,
    name: 'Orchard',
    area_ha: 1,
    location: { lat: 19.99, lon: 73.79 },
  });
  expect(field.status).toBe(201);
  // Quote and issue need the farmer's insurance grant (SPEC §6): both insurers of this suite have one.
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!, otherInsurer.org!);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const register = (productId: string, sheet: Sheet, caller: Caller = insurer) =>
  api.post(PATH, caller, { product_id: productId, sheet });

/** The organization's products as the API lists them: what a refused request must leave unchanged. */
const productIds = async (): Promise<string[]> => {
  const listed = await api.get(`${PATH}?page_size=100`, insurer);
  expect(listed.status).toBe(200);
  return listed.body.items.map((product: { product_id: string }) => product.product_id);
};

/** The same term `years` earlier (29 February → 28 February, as a backtest shifts it). */
const yearsBack = (date: string, years: number): string => {
  const year = Number(date.slice(0, 4)) - years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${year}-${date.slice(5) === '02-29' && !leap ? '02-28' : date.slice(5)}`;
};

/** The latest whole season of a term that ended before today: the one a backtest reads. */
const pastSeasonOf = (term: { term_start: string; term_end: string }) => {
  for (let years = 1; ; years += 1) {
    const end = yearsBack(term.term_end, years);
    if (end < today()) return { start: yearsBack(term.term_start, years), end };
  }
};

/** One reading a day of `index` over [from, to]: `valueOn(date)`. */
const readings = async (
  field: { farm_id: string; field_id: string },
  index: string,
  from: string,
  to: string,
  valueOn: (date: string) => number,
) => {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  await recordReadings(api, feed, field, index, from, dates.map(valueOn));
};

/** Quotes the product's next season on a new field, issues at the quote's price and term. */
const issuedOn = async (productId: string, perils: string[], sumInsured: number, version?: number) => {
  const field = await fieldOf();
  const product = version === undefined ? { product_id: productId } : { product_id: productId, version };
  const quote = await api.post('/insurance/quote', insurer, { ...field, perils, sum_insured: sumInsured, product });
  expect(quote.status).toBe(200);
  const issued = await api.post('/insurance/policies', insurer, {
    ...field,
    perils,
    sum_insured: sumInsured,
    term_start: quote.body.term_start,
    term_end: quote.body.term_end,
    product: quote.body.product,
  });
  expect(issued.status).toBe(201);
  expect(issued.body.premium).toBe(quote.body.premium);
  return { field, quote: quote.body, policy: issued.body };
};

const backtest = async (policyId: string, asOf: string) => {
  const evaluated = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, { as_of: asOf });
  expect(evaluated.status).toBe(200);
  expect(evaluated.body.is_backtest).toBe(true);
  return evaluated.body;
};

describe('registering and reading products (TERM-SHEETS.md §2.1)', () => {
  it('registers a sheet as version 1 with its digest, readable at its Location by the organization', async () => {
    const posted = await register('kharif-deficit', KHARIF_DEFICIT_SHEET);
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      product_id: 'kharif-deficit',
      version: 1,
      digest: expect.stringMatching(SHA256),
      status: 'active',
      sheet: KHARIF_DEFICIT_SHEET,
      registered_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(posted.headers.get('location')).toBe(`${PATH}/kharif-deficit/versions/1`);
    const read = await api.get(posted.headers.get('location')!, auditor);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(posted.body);

    const validated = await api.post(`${PATH}/validate`, insurer, { sheet: KHARIF_DEFICIT_SHEET });
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({ valid: true, digest: posted.body.digest });

    const product = await api.get(`${PATH}/kharif-deficit`, insurer);
    expect(product.status).toBe(200);
    expect(product.body).toEqual({
      product_id: 'kharif-deficit',
      built_in: false,
      versions: [
        {
          version: 1,
          digest: posted.body.digest,
          status: 'active',
          name: KHARIF_DEFICIT_SHEET.name,
          registered_at: posted.body.registered_at,
        },
      ],
    });
  });

  it('shows the built-in `default` to everyone and never registers it (409)', async () => {
    const listed = await api.get(PATH, otherInsurer);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((product: { product_id: string }) => product.product_id)).toEqual(['default']);
    const version = await api.get(`${PATH}/default/versions/1`, auditor);
    expect(version.status).toBe(200);
    expect(version.body).toMatchObject({ product_id: 'default', version: 1, status: 'active' });
    expect(version.body.sheet.covers.map((cover: { peril: string }) => cover.peril)).toEqual([
      'drought',
      'flood',
      'vegetation_stress',
      'storm',
    ]);
    expectProblem(await register('default', RAIN_DAYS_SHEET), 409, 'product_exists');
    expectProblem(
      await api.post(`${PATH}/default/versions`, insurer, { sheet: RAIN_DAYS_SHEET }),
      409,
      'product_exists',
    );
    expectProblem(await api.post(`${PATH}/default/versions/1/retire`, insurer, {}), 409, 'product_exists');
  });

  it('keeps each organization’s products its own: others get 404 and may use the same id', async () => {
    expect((await register('rain-days', RAIN_DAYS_SHEET)).status).toBe(201);
    expectProblem(await api.get(`${PATH}/rain-days`, otherInsurer), 404, 'product_not_found');
    expectProblem(await api.get(`${PATH}/rain-days/versions/1`, otherInsurer), 404, 'product_not_found');
    expectProblem(await api.post(`${PATH}/rain-days/versions/1/retire`, otherInsurer, {}), 404, 'product_not_found');
    const field = await fieldOf();
    expectProblem(
      await api.post('/insurance/quote', otherInsurer, {
        ...field,
        perils: ['excess_rainfall'],
        sum_insured: 100_000,
        product: { product_id: 'rain-days' },
      }),
      404,
      'product_not_found',
    );
    const theirs = await register('rain-days', SCIC_CORN_SHEET, otherInsurer);
    expect(theirs.status).toBe(201);
    expect((await api.get(`${PATH}/rain-days/versions/1`, insurer)).body.sheet).toEqual(RAIN_DAYS_SHEET);
  });

  it('refuses an id the organization has (409) and a sheet of the wrong shape (400), recording nothing', async () => {
    expect((await register('taken-id', KHARIF_DEFICIT_SHEET)).status).toBe(201);
    const before = await productIds();
    expectProblem(await register('taken-id', RAIN_DAYS_SHEET), 409, 'product_exists');
    const tooPrecise = { ...RAIN_DAYS_SHEET, covers: [{ ...RAIN_DAYS_SHEET.covers[0], base_rate: 0.1234567 }] };
    const shape = await register('too-precise', tooPrecise);
    expectProblem(shape, 400, 'validation_failed');
    expect(shape.body.errors.map((error: { path: string }) => error.path)).toEqual(['sheet.covers.0.base_rate']);
    expectProblem(await register('Bad_Id', RAIN_DAYS_SHEET), 400, 'validation_failed');
    expect(await productIds()).toEqual(before);
  });

  it('takes a sheet as its phase table (text/csv) and answers it back at ?format=csv (TERM-SHEETS.md §5.1)', async () => {
    const csv = (path: string, table: string) =>
      api.request('POST', path, { caller: insurer, rawBody: table, headers: { 'content-type': 'text/csv' } });
    expect((await register('scic-json', SCIC_CORN_SHEET)).status).toBe(201);
    const table = await api.get(`${PATH}/scic-json/versions/1?format=csv`, insurer);
    expect(table.status).toBe(200);
    expect(table.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(String(table.body).split('\n')[0]).toMatch(/^schema,name,/);
    const validated = await csv(`${PATH}/validate`, table.body);
    expect(validated.status).toBe(200);
    const registered = await csv(`${PATH}?product_id=scic-csv`, table.body);
    expect(registered.status).toBe(201);
    expect(registered.body.digest).toBe(validated.body.digest);
    const read = await api.get(`${PATH}/scic-csv/versions/1`, insurer);
    expect(read.body.sheet).toEqual(JSON.parse(JSON.stringify(SCIC_CORN_SHEET)));
    const before = await productIds();
    expectProblem(await csv(`${PATH}?product_id=scic-bad`, 'peril,phase\n'), 400, 'malformed_phase_table');
    expect(await productIds()).toEqual(before);
  });

  it('versions: the same sheet answers 200 with the latest, new terms 201, a stale If-Match 412', async () => {
    expect((await register('rain-days-v', RAIN_DAYS_SHEET)).status).toBe(201);
    const same = await api.post(`${PATH}/rain-days-v/versions`, insurer, { sheet: RAIN_DAYS_SHEET });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ version: 1 });
    const wider = { ...RAIN_DAYS_SHEET, name: 'Rain-day cover, 2027 wording' };
    const next = await api.post(`${PATH}/rain-days-v/versions`, insurer, { sheet: wider }, { 'If-Match': '"v1"' });
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ version: 2, sheet: wider });
    expect(next.headers.get('location')).toBe(`${PATH}/rain-days-v/versions/2`);
    expectProblem(
      await api.post(`${PATH}/rain-days-v/versions`, insurer, { sheet: RAIN_DAYS_SHEET }, { 'If-Match': '"v1"' }),
      412,
      'precondition_failed',
    );
    expectProblem(
      await api.post(`${PATH}/no-such-product/versions`, insurer, { sheet: RAIN_DAYS_SHEET }),
      404,
      'product_not_found',
    );
    const versions = await api.get(`${PATH}/rain-days-v`, insurer);
    expect(versions.body.versions.map((entry: { version: number }) => entry.version)).toEqual([1, 2]);
  });
});

/** Example B with its first phase (and its cover, and the sheet) changed. */
const kharif = (phase: Sheet = {}, cover: Sheet = {}, sheet: Sheet = {}): Sheet => {
  const [drought] = KHARIF_DEFICIT_SHEET.covers;
  const [first, ...rest] = drought!.phases;
  return {
    ...KHARIF_DEFICIT_SHEET,
    ...sheet,
    covers: [{ ...drought, ...cover, phases: [{ ...first, ...phase }, ...rest] }],
  };
};
/** Example B with one of its phases changed. */
const kharifPhase = (at: number, change: Sheet): Sheet => {
  const [drought] = KHARIF_DEFICIT_SHEET.covers;
  const phases = drought!.phases.map((phase, index) => (index === at ? { ...phase, ...change } : phase));
  return { ...KHARIF_DEFICIT_SHEET, covers: [{ ...drought, phases }] };
};
/** Example C with its phase changed. */
const rainDays = (phase: Sheet): Sheet => {
  const [cover] = RAIN_DAYS_SHEET.covers;
  return { ...RAIN_DAYS_SHEET, covers: [{ ...cover, phases: [{ ...cover!.phases[0], ...phase }] }] };
};

describe('each rule of TERM-SHEETS.md §2.2 broken once: 422 invalid_term_sheet, nothing recorded', () => {
  const cases: [string, Sheet, string][] = [
    [
      'trigger_exit_order',
      kharif({ payout: { linear: { direction: 'below', trigger: 100, exit: 120 } } }),
      'covers.0.phases.0.payout.linear.exit',
    ],
    ['phases_overlap', kharif({ window: { from: '06-01', to: '07-10' } }), 'covers.0.phases.1.window'],
    ['window_outside_term', kharifPhase(2, { window: { from: '08-11', to: '10-10' } }), 'covers.0.phases.2.window'],
    [
      'window_empty',
      kharif({ window: { from: { anchor: 'term_start', days: 20 }, to: { anchor: 'term_start', days: 10 } } }),
      'covers.0.phases.0.window',
    ],
    ['limit_exceeds_sum_insured', kharif({}, {}, { limit: 3_000_001 }), 'limit'],
    ['limit_exceeds_cover_limit', kharif({ limit: 2_500_000 }), 'covers.0.phases.0.limit'],
    [
      'steps_invalid',
      rainDays({
        payout: {
          steps: [
            { from: 5, to: 7, pay: 800_000 },
            { from: 7, pay: 700_000 },
          ],
        },
      }),
      'covers.0.phases.0.payout.steps.1.pay',
    ],
    ['premature_settlement', kharif({ settle: 'any_time' }), 'covers.0.phases.0.settle'],
    ['blocks_misaligned', kharif({ window: { from: '06-02', to: '06-30' } }), 'covers.0.phases.0.blocks'],
    [
      'blocks_arity',
      kharif({ blocks: { by: 'dekad', vs_normal: { as: 'percent', normal: [50, 60] } } }),
      'covers.0.phases.0.blocks.normal',
    ],
    [
      'normal_not_positive',
      kharif({ blocks: { by: 'dekad', vs_normal: { as: 'percent', normal: [50, 0, 60] } } }),
      'covers.0.phases.0.blocks.vs_normal.normal',
    ],
    ['aggregate_invalid', rainDays({ day: { cap: 10 }, aggregate: 'longest_run' }), 'covers.0.phases.0.aggregate'],
    [
      'duplicate_peril',
      { ...KHARIF_DEFICIT_SHEET, covers: [...KHARIF_DEFICIT_SHEET.covers, KHARIF_DEFICIT_SHEET.covers[0]] },
      'covers.1.peril',
    ],
    ['duplicate_phase', kharifPhase(2, { id: 'establishment' }), 'covers.0.phases.2.id'],
    ['season_too_long', { ...RAIN_DAYS_SHEET, season: { from: '07-01', to: '07-01' } }, 'season'],
    [
      'sowing_invalid',
      kharif({ window: { from: { anchor: 'sowing', days: 0 }, to: { anchor: 'sowing', days: 29 } } }),
      'covers.0.phases.0.window',
    ],
  ];

  it.each(cases)('%s', async (code, sheet, path) => {
    const before = await productIds();
    const productId = `broken-${code.replaceAll('_', '-')}`;
    for (const refused of [await register(productId, sheet), await api.post(`${PATH}/validate`, insurer, { sheet })]) {
      expectProblem(refused, 422, 'invalid_term_sheet');
      expect(refused.body.errors).toEqual([{ path, code, message: expect.any(String) }]);
    }
    expect(await productIds()).toEqual(before);
    expectProblem(await api.get(`${PATH}/${productId}`, insurer), 404, 'product_not_found');
  });

  it('lists every rule a sheet breaks, each once', async () => {
    const refused = await register('broken-twice', kharif({ settle: 'any_time', limit: 2_500_000 }));
    expectProblem(refused, 422, 'invalid_term_sheet');
    expect(refused.body.errors.map((error: { code: string }) => error.code)).toEqual([
      'premature_settlement',
      'limit_exceeds_cover_limit',
    ]);
  });
});

describe('the golden sheets A–D issued and backtested over HTTP (TERM-SHEETS.md §3)', () => {
  it('A, RWBCIS orange: a 7-day burst of 31 mm pays Rs 20,000 (G14), a 6-night cold run Rs 8,000 (G16)', async () => {
    expect((await register('rwbcis-orange', RWBCIS_ORANGE_SHEET)).status).toBe(201);
    const { field, quote, policy } = await issuedOn('rwbcis-orange', ['unseasonal_rain', 'cold'], 32_000);
    expect(quote).toMatchObject({ currency: 'INR', product: { product_id: 'rwbcis-orange', version: 1 } });
    expect(policy.product).toEqual(quote.product);
    const season = pastSeasonOf(quote);
    const year = Number(season.start.slice(0, 4));
    const burst = new Map([10, 11, 12, 13, 14, 15, 16].map((day, at) => [`${year}-12-${day}`, at < 5 ? 5 : 3]));
    await readings(field, 'rainfall_mm', `${year}-12-01`, `${year}-12-31`, (date) => burst.get(date) ?? 0);
    await readings(field, 'tmin_c', `${year + 1}-01-16`, season.end, (date) =>
      date >= `${year + 1}-01-20` && date <= `${year + 1}-01-25` ? 8 : 12,
    );
    const december = await backtest(policy.policy_id, `${year}-12-31`);
    expect(december.total_payout).toBe(20_000);
    expect(december.skipped_perils).toEqual(['cold']);
    expect(december.skipped_reasons).toEqual({ cold: 'window_not_open' });
    const whole = await backtest(policy.policy_id, season.end);
    expect(whole.total_payout).toBe(28_000);
    expect(
      whole.events.map((event: { peril: string; observed_value: number }) => [event.peril, event.observed_value]),
    ).toEqual([
      ['unseasonal_rain', 31],
      ['cold', 6],
    ]);
  });

  it('B, Kharif deficit: three phases pay at each phase end, capped by the cover at Rs 24,000 (G21)', async () => {
    expect((await register('kharif-b', KHARIF_DEFICIT_SHEET)).status).toBe(201);
    const { field, quote, policy } = await issuedOn('kharif-b', ['drought'], 30_000);
    expect(quote).toMatchObject({ currency: 'INR', product: { product_id: 'kharif-b', version: 1 } });
    const season = pastSeasonOf(quote);
    const year = season.start.slice(0, 4);
    const rain = (date: string): number => {
      const monthDay = date.slice(5);
      if (monthDay <= '06-10') return 3;
      if (monthDay <= '06-20') return 1;
      if (monthDay >= '07-01' && monthDay <= '07-30') return 2;
      if (monthDay >= '08-11' && monthDay <= '08-20') return 15;
      return 0;
    };
    await readings(field, 'rainfall_mm', season.start, season.end, rain);
    expect((await backtest(policy.policy_id, `${year}-06-30`)).total_payout).toBe(6_000);
    const vegetative = await backtest(policy.policy_id, `${year}-08-10`);
    expect(vegetative.total_payout).toBe(15_000);
    expect(
      vegetative.events[0].phases.map((phase: { phase: string; status: string }) => [phase.phase, phase.status]),
    ).toEqual([
      ['establishment', 'closed'],
      ['vegetative', 'closed'],
      ['flowering', 'not_open'],
    ]);
    const whole = await backtest(policy.policy_id, season.end);
    expect(whole.total_payout).toBe(24_000);
    expect(whole.events[0].phases.map((phase: { amount_due: number }) => phase.amount_due)).toEqual([
      6_000, 9_000, 10_000,
    ]);

    // A later version and the retirement of version 1 never reach the issued policy.
    const wider = kharif({}, { limit: 2_700_000 }, { name: 'Kharif deficit rainfall, wider cover' });
    const next = await api.post(`${PATH}/kharif-b/versions`, insurer, { sheet: wider });
    expect(next.status).toBe(201);
    const retired = await api.post(`${PATH}/kharif-b/versions/1/retire`, insurer, {});
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ version: 1, status: 'retired' });
    expect((await backtest(policy.policy_id, season.end)).total_payout).toBe(24_000);
    const read = await api.get(`/insurance/policies/${policy.policy_id}`, insurer);
    expect(read.body.product).toEqual(quote.product);

    // No new quote or issue on the retired version; without a version, the latest active one is sold.
    const request = { ...(await fieldOf()), perils: ['drought'], sum_insured: 30_000 };
    expectProblem(
      await api.post('/insurance/quote', insurer, {
        ...request,
        product: { product_id: 'kharif-b', version: 1 },
      }),
      422,
      'product_retired',
    );
    expectProblem(
      await api.post('/insurance/policies', insurer, {
        ...request,
        term_start: quote.term_start,
        term_end: quote.term_end,
        product: { product_id: 'kharif-b', version: 1 },
      }),
      422,
      'product_retired',
    );
    // The quote's product sent back with another version: that version's digest is not the one sent.
    expectProblem(
      await api.post('/insurance/quote', insurer, { ...request, product: { ...quote.product, version: 2 } }),
      404,
      'product_not_found',
    );
    const latest = await api.post('/insurance/quote', insurer, {
      ...request,
      product: { product_id: 'kharif-b' },
    });
    expect(latest.status).toBe(200);
    expect(latest.body.product).toEqual({ product_id: 'kharif-b', version: 2, digest: next.body.digest });
    const second = await issuedOn('kharif-b', ['drought'], 30_000);
    await readings(second.field, 'rainfall_mm', season.start, season.end, rain);
    expect((await backtest(second.policy.policy_id, season.end)).total_payout).toBe(25_000);
  });

  it('C, CelsiusPro rain days: 8 days above 10 mm pay (8 − 3) ticks, USD 50,000 (G5)', async () => {
    expect((await register('rain-days-c', RAIN_DAYS_SHEET)).status).toBe(201);
    const { field, quote, policy } = await issuedOn('rain-days-c', ['excess_rainfall'], 100_000);
    expect(quote.currency).toBe('USD');
    const season = pastSeasonOf(quote);
    const year = season.start.slice(0, 4);
    const wet = (date: string) => (date <= `${year}-07-08` ? 12 : date <= `${year}-07-10` ? 10 : 0);
    await readings(field, 'rainfall_mm', season.start, season.end, wet);
    const evaluated = await backtest(policy.policy_id, season.end);
    expect(evaluated.total_payout).toBe(50_000);
    expect(evaluated.events).toEqual([
      expect.objectContaining({ peril: 'excess_rainfall', index: 'rain_days_gt_10mm', observed_value: 8 }),
    ]);
  });

  it('D, SCIC corn: weighted % of normal 76.3 falls in the 7% row, 350,000 of 5,000,000 (G11)', async () => {
    expect((await register('scic-corn', SCIC_CORN_SHEET)).status).toBe(201);
    const { field, quote, policy } = await issuedOn('scic-corn', ['drought'], 50_000);
    const season = pastSeasonOf(quote);
    const year = season.start.slice(0, 4);
    const monthly = new Map([
      [`${year}-05-15`, 60],
      [`${year}-06-15`, 60],
      [`${year}-07-15`, 10],
      [`${year}-08-15`, 25],
    ]);
    await readings(field, 'rainfall_mm', season.start, season.end, (date) => monthly.get(date) ?? 0);
    const evaluated = await backtest(policy.policy_id, season.end);
    expect(evaluated.total_payout).toBe(3_500);
    expect(evaluated.events[0]).toMatchObject({ peril: 'drought', observed_value: 76.3 });
  });
});

describe('a multi-phase sheet evaluated live', () => {
  it('pays its open phase on readings posted after issue; the next phase is not open yet', async () => {
    const monthDay = (date: string) => date.slice(5);
    const start = addDays(today(), -3);
    const sheet = {
      schema: 'cropcover.term-sheet/1',
      name: 'Wet-days cover in two fortnights and a tail',
      season: { from: monthDay(start), to: monthDay(addDays(start, 59)) },
      amounts: { unit: 'share' },
      covers: [
        {
          peril: 'excess_rainfall',
          index: 'wet_days_gt_10mm',
          reading: 'rainfall_mm',
          limit: 1,
          base_rate: 0.05,
          exposure: 'season',
          phases: [
            {
              id: 'first',
              window: { from: monthDay(start), to: monthDay(addDays(start, 13)) },
              day: { is: { op: 'gt', value: 10 } },
              aggregate: 'sum',
              payout: { tick: { direction: 'above', trigger: 0, per_unit: 0.1 } },
              limit: 0.5,
            },
            {
              id: 'rest',
              window: { from: monthDay(addDays(start, 14)), to: monthDay(addDays(start, 59)) },
              day: { is: { op: 'gt', value: 10 } },
              aggregate: 'sum',
              payout: { tick: { direction: 'above', trigger: 0, per_unit: 0.1 } },
              limit: 0.5,
            },
          ],
        },
      ],
    };
    expect((await register('wet-days-live', sheet)).status).toBe(201);
    const { field, policy } = await issuedOn('wet-days-live', ['excess_rainfall'], 10_000);
    expect(policy.term_start).toBe(start);
    await readings(field, 'rainfall_mm', start, today(), (date) => (date < today() ? 20 : 0));
    const evaluated = await api.post(`/insurance/policies/${policy.policy_id}/evaluate`, insurer, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body).toMatchObject({ is_backtest: false, total_payout: 3_000, payout_count: 1 });
    expect(
      evaluated.body.events[0].phases.map((phase: { phase: string; status: string }) => [phase.phase, phase.status]),
    ).toEqual([
      ['first', 'open'],
      ['rest', 'not_open'],
    ]);
    const again = await api.post(`/insurance/policies/${policy.policy_id}/evaluate`, insurer, {});
    expect(again.body).toMatchObject({ total_payout: 0, payout_count: 0 });
  });
});

describe('a Jan–Feb interval in a leap year (issue 32)', () => {
  it('backtests 2024 with 29 February in its one block, never a 500', async () => {
    expect((await register('prf-jan-feb', PRF_JAN_FEB_SHEET)).status).toBe(201);
    const { field, policy } = await issuedOn('prf-jan-feb', ['drought'], 10_000);
    // 1 mm a day and 10 mm on the leap day: 69 mm of a 100 mm normal pays (90 − 69) / 90 of USD 10,000.
    await readings(field, 'rainfall_mm', '2024-01-01', '2024-02-29', (date) => (date === '2024-02-29' ? 10 : 1));
    const leapYear = await api.post(`/insurance/policies/${policy.policy_id}/evaluate`, insurer, {
      as_of: '2024-03-15',
    });
    expect(leapYear.status).toBe(200);
    expect(leapYear.body.events[0]).toMatchObject({ peril: 'drought', observed_value: 69, breached: true });
    expect(leapYear.body.total_payout).toBe(2_333.33);
  });

  it('quotes the 2028 season, January 1 to February 29', async () => {
    const leapSeason = await api.post('/insurance/quote', insurer, {
      ...(await fieldOf()),
      perils: ['drought'],
      sum_insured: 10_000,
      product: { product_id: 'prf-jan-feb' },
      term_start: '2028-01-01',
      term_end: '2028-02-29',
    });
    expect(leapSeason.status).toBe(200);
    expect(leapSeason.body).toMatchObject({ term_start: '2028-01-01', term_end: '2028-02-29' });
  });

  it('H6: 1 acre of PRF at a published rate split between the farmer and the government, on the quote and the policy', async () => {
    const sheet = {
      ...PRF_JAN_FEB_SHEET,
      schema: 'cropcover.term-sheet/2',
      amounts: { unit: 'per_exposure_unit', currency: 'USD', exposure_unit: 'acre', value_minor: 1_836 },
      pricing: {
        method: 'fixed_rate',
        rate: 0.2252,
        premium_shares: [
          { payer: 'farmer', share: 0.49 },
          { payer: 'government', share: 0.51 },
        ],
      },
    };
    expect((await register('prf-27663', sheet)).status).toBe(201);
    const field = await fieldOf();
    const asked = {
      ...field,
      perils: ['drought'],
      sum_insured: 18.36,
      exposure_units: 1,
      product: { product_id: 'prf-27663' },
    };
    expectProblem(
      await api.post('/insurance/quote', insurer, { ...asked, exposure_units: undefined }),
      422,
      'exposure_unit_missing',
    );
    const quote = (await api.post('/insurance/quote', insurer, asked)).body;
    const issued = await api.post('/insurance/policies', insurer, {
      ...asked,
      term_start: quote.term_start,
      term_end: quote.term_end,
      product: quote.product,
    });
    expect(issued.status).toBe(201);
    const policy = issued.body;
    // 1 acre at 18.36 USD: gross 4.13, the government 4.13 × 0.51 = 2.1063 → 2.11, the farmer the rest.
    const shares = [
      { payer: 'farmer', share: 0.49, premium: 2.02 },
      { payer: 'government', share: 0.51, premium: 2.11 },
    ];
    expect(quote).toMatchObject({ sum_insured: 18.36, exposure_units: 1, premium: 4.13, premium_shares: shares });
    expect(quote.breakdown.drought).toMatchObject({ method: 'fixed_rate', rate: 0.2252, seasons_used: 0 });
    const read = await api.get(`/insurance/policies/${policy.policy_id}`, insurer);
    expect(read.body).toMatchObject({ exposure_units: 1, premium: 4.13, premium_shares: shares });
    const unbalanced = { ...sheet, pricing: { ...sheet.pricing, premium_shares: [{ payer: 'farmer', share: 0.5 }] } };
    const refused = await register('prf-unbalanced', unbalanced);
    expectProblem(refused, 422, 'invalid_term_sheet');
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ path: 'pricing.premium_shares', code: 'premium_shares_sum' }),
    ]);
  });

  it('answers a window the term cannot hold with 422 window_outside_term naming it in errors[]', async () => {
    const june = { ...RAIN_DAYS_SHEET, season: undefined, name: 'June rain days, any term' };
    june.covers = [
      {
        ...RAIN_DAYS_SHEET.covers[0]!,
        phases: [{ ...RAIN_DAYS_SHEET.covers[0]!.phases[0]!, window: { from: '06-01', to: '06-30' } }],
      },
    ];
    expect((await register('june-rain-days', JSON.parse(JSON.stringify(june)))).status).toBe(201);
    const refused = await api.post('/insurance/quote', insurer, {
      ...(await fieldOf()),
      perils: ['excess_rainfall'],
      sum_insured: 10_000,
      currency: 'USD',
      product: { product_id: 'june-rain-days' },
      term_start: addDays(today(), 1),
      term_end: addDays(today(), 60),
    });
    expectProblem(refused, 422, 'window_outside_term');
    expect(refused.body.errors).toEqual([
      {
        path: 'covers.0.phases.0.window',
        code: 'window_outside_term',
        message: expect.stringContaining('is not within'),
      },
    ]);
  });
});
