import { describe, expect, it } from 'vitest';
import { type Caller, tokenFor } from '../support/api-client';
import { grantInsurance } from '../support/farm-access';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// INDEX-DATA §5 acceptance 4 through `npm start`: a producer's wide CSV of 58 unit areas × 39 years of daily
// rainfall ingested as a file, a dekadal climatology of it, and one product for every unit — a percent-of-normal
// cover whose blocks read the normals of the policy's own unit (TERM-SHEETS.md §5 `vs_normal: {as,
// climatology}`), frozen at issue —; and an 8-day NDVI CSV over the same units, an 8-day climatology of it, and a
// z-scored seasonal NDVI cover whose blocks are the source's composites (`blocks.by: "source_period"`); each
// paying, backtested, exactly what the test computes from the same CSV with integer arithmetic.

const suite = serviceUnderTest('e2e_climatology_covers', { MONITOR_ENABLED: 'false' });
const { api } = suite;

const feed: Caller = { sub: 'arc-feed', org: 'org-arc', roles: ['data_provider'] };
const insurer: Caller = { sub: 'prf-designer', org: 'org-prf', roles: ['insurer'] };

const UNIT_COUNT = 58;
const YEARS = { from: 1985, to: 2023 };
/** The season the backtest reads: the product's season of the last year that ended before today. */
const SEASON_YEAR = 2026;
const SEASON = { from: '06-01', to: '07-31' };
const SUM_INSURED_MINOR = 1_000_000;

const unitId = (at: number) => `KE-U${String(at + 1).padStart(2, '0')}`;
/** Unit `at`: a 0.5° square, eight to a row, from (−2, 30). */
const unitSquare = (at: number) => {
  const west = 30 + (at % 8) * 0.5;
  const south = -2 + Math.floor(at / 8) * 0.5;
  return {
    west,
    south,
    polygon: {
      type: 'Polygon',
      coordinates: [
        [
          [west, south],
          [west + 0.5, south],
          [west + 0.5, south + 0.5],
          [west, south + 0.5],
          [west, south],
        ],
      ],
    },
  };
};

const datesFrom = (from: string, to: string): string[] => {
  const dates: string[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 86_400_000) {
    dates.push(new Date(day).toISOString().slice(0, 10));
  }
  return dates;
};
const DATES = datesFrom(`${YEARS.from}-01-01`, `${SEASON_YEAR}-07-31`);

/** Rain in tenths of a millimetre, varied by unit and day, dry one day in three; the season read is drier in
 *  some units than others (a fifth of the rain in unit 0, all of it in unit 4, …). */
const tenths = (unit: number, date: string): number => {
  const seed = Number(date.replaceAll('-', '')) * 31 + unit * 97;
  const rain = seed % 3 === 0 ? 0 : (seed * 7) % 251;
  return date.startsWith(`${SEASON_YEAR}-`) ? Math.floor((rain * ((unit % 5) + 1)) / 5) : rain;
};

const wideCsv = (): string =>
  [
    ['date', ...Array.from({ length: UNIT_COUNT }, (_, at) => unitId(at))].join(','),
    ...DATES.map((date) =>
      [date, ...Array.from({ length: UNIT_COUNT }, (_, at) => (tenths(at, date) / 10).toString())].join(','),
    ),
  ].join('\n');

/** Dekad `dekad` (1–36) of `year`, as dates. */
const dekadDates = (year: number, dekad: number): string[] => {
  const month = String(Math.floor((dekad - 1) / 3) + 1).padStart(2, '0');
  const third = (dekad - 1) % 3;
  const last = third < 2 ? third * 10 + 10 : new Date(Date.UTC(year, Number(month), 0)).getUTCDate();
  return datesFrom(`${year}-${month}-${String(third * 10 + 1).padStart(2, '0')}`, `${year}-${month}-${last}`);
};
const SEASON_DEKADS = [16, 17, 18, 19, 20, 21];

const roundedHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator);

/**
 * The test's own figures for a unit: each June–July dekad's normal over the 39 years (mean in millionths,
 * half up, as INDEX-DATA §3 rounds), the season's percent of it rounded to a tenth half up (`round: 1`), their
 * mean, and the linear payout below 80 % down to 20 % on the sum insured, half up.
 */
const expectedPayoutMinor = (unit: number): bigint => {
  let tenthsOfPercent = 0n;
  for (const dekad of SEASON_DEKADS) {
    let total = 0n;
    for (let year = YEARS.from; year <= YEARS.to; year += 1) {
      for (const date of dekadDates(year, dekad)) total += BigInt(tenths(unit, date));
    }
    const years = BigInt(YEARS.to - YEARS.from + 1);
    const normalMillionths = roundedHalfUp(total * 100_000n, years);
    const season = dekadDates(SEASON_YEAR, dekad).reduce((sum, date) => sum + BigInt(tenths(unit, date)), 0n);
    // 100 × (season / 10) / (normal / 10⁶) in tenths of a percent: season × 10⁸ / normal.
    tenthsOfPercent += roundedHalfUp(season * 100_000_000n, normalMillionths);
  }
  // Index I = Σ / (6 × 10) %; severity (80 − I) / 60 = (4,800 − Σ) / 3,600, between 0 and 1.
  const depth = 4_800n - tenthsOfPercent;
  if (depth <= 0n) return 0n;
  if (depth >= 3_600n) return BigInt(SUM_INSURED_MINOR);
  return roundedHalfUp(BigInt(SUM_INSURED_MINOR) * depth, 3_600n);
};

const SHEET = {
  schema: 'cropcover.term-sheet/2',
  name: 'Unit rainfall, June–July dekads as a percent of each unit’s normal',
  season: SEASON,
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'drought',
      index: 'dekadal_pct_of_normal',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'june_july',
          window: SEASON,
          blocks: { by: 'dekad', vs_normal: { as: 'percent', climatology: { name: 'arc2-dekadal' } }, round: 1 },
          aggregate: 'mean',
          payout: { linear: { direction: 'below', trigger: 80, exit: 20 } },
          limit: 1,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

/** The unit's June–July totals in tenths of a millimetre: the 39 climatology years', and the season read. */
const seasonTenths = (unit: number, year: number): bigint =>
  datesFrom(`${year}-${SEASON.from}`, `${year}-${SEASON.to}`).reduce(
    (sum, date) => sum + BigInt(tenths(unit, date)),
    0n,
  );

/** The test's own figures for the percentile cover: nearest-rank p20 and p5 of the 39 totals (the ⌈p·n/100⌉-th
 *  smallest), and SI × (p20 − season) / (p20 − p5), half up, between 0 and the sum insured. */
const expectedPercentilePayoutMinor = (unit: number): bigint => {
  const totals = Array.from({ length: YEARS.to - YEARS.from + 1 }, (_, at) => seasonTenths(unit, YEARS.from + at)).sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  const rank = (p: number) => totals[Math.ceil((p * totals.length) / 100) - 1]!;
  const [p20, p5, season] = [rank(20), rank(5), seasonTenths(unit, SEASON_YEAR)];
  if (season >= p20) return 0n;
  if (season <= p5) return BigInt(SUM_INSURED_MINOR);
  return roundedHalfUp(BigInt(SUM_INSURED_MINOR) * (p20 - season), p20 - p5);
};

const P20_SHEET = {
  schema: 'cropcover.term-sheet/2',
  name: 'Unit rainfall, June–July total below the unit’s 20th percentile',
  season: SEASON,
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'drought',
      index: 'season_rain_mm',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'june_july',
          window: SEASON,
          aggregate: 'sum',
          payout: {
            linear: {
              direction: 'below',
              trigger: { percentile: 20, climatology: { name: 'season-totals' } },
              exit: { percentile: 5 },
            },
          },
          limit: 1,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

let sequence = 0;
const fieldIn = async (unit: number) => {
  const owner: Caller = { sub: `grower-${++sequence}`, givenName: 'Amina', familyName: 'Galgalo' };
  const farm = await api.post('/farms/create', owner, { name: `Boma ${sequence}` });
  expect(farm.status).toBe(201);
  const { west, south } = unitSquare(unit);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: 'pasture',
    name: 'Pasture',
    area_ha: 4,
    location: { lat: south + 0.2, lon: west + 0.2 },
  });
  expect(field.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  return { farm_id: farm.body.farm_id as string, field_id: 'pasture' };
};

const registerUnits = async (sourceId: string) => {
  const units = Array.from({ length: UNIT_COUNT }, (_, at) => ({
    unit_id: unitId(at),
    name: `Unit ${at + 1}`,
    polygon: unitSquare(at).polygon,
  }));
  expect((await api.post(`/insurance/index-sources/${sourceId}/units`, feed, { units })).status).toBe(201);
};

const postCsv = async (sourceId: string, csv: string) => {
  const posted = await fetch(`${suite.service.baseUrl}/insurance/index-sources/${sourceId}/files?label=final`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor(feed)}`, 'content-type': 'text/csv' },
    body: csv,
  });
  expect({ status: posted.status, body: posted.status === 202 ? undefined : await posted.json() }).toEqual({
    status: 202,
    body: undefined,
  });
  return untilDone(posted.headers.get('location')!, feed);
};

type FieldRef = { farm_id: string; field_id: string };
const coverRequest = (field: FieldRef, productId: string, peril: string, sourceId: string) => ({
  ...field,
  perils: [peril],
  sum_insured: SUM_INSURED_MINOR / 100,
  currency: 'USD',
  product: { product_id: productId },
  data_sources: { [peril]: sourceId },
});

/** Issues the policy the quote priced; its id. */
const issueQuoted = async (request: ReturnType<typeof coverRequest>, quote: { body: Record<string, unknown> }) => {
  const issued = await api.post('/insurance/policies', insurer, {
    ...request,
    term_start: quote.body.term_start,
    term_end: quote.body.term_end,
    product: quote.body.product,
  });
  expect(issued.status).toBe(201);
  expect(issued.body.premium).toBe(quote.body.premium);
  return issued.body.policy_id as string;
};

const climatologyOf = async (sourceId: string, request: Record<string, unknown>) => {
  const asked = await api.post(`/insurance/index-sources/${sourceId}/climatologies`, insurer, request);
  expect(asked.status).toBe(202);
  const climatology = await untilDone(asked.headers.get('location')!, insurer);
  expect(climatology).toMatchObject({ status: 'succeeded', version: 1 });
  return (await api.get(`/insurance/index-sources/${sourceId}/climatologies/${request.name}`, insurer)).body;
};

const untilDone = async (location: string, caller: Caller) => {
  for (;;) {
    const job = await api.get(location, caller);
    expect(job.status).toBe(200);
    if (job.body.status === 'succeeded' || job.body.status === 'failed') return job.body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

describe('one product for every unit, read against a dekadal climatology', () => {
  it('pays each unit, backtested, what the test computes from the same CSV', async () => {
    const source = await api.post('/insurance/index-sources', feed, {
      kind: 'grid',
      name: 'ARC2 unit rainfall',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
    });
    expect(source.status).toBe(201);
    const sourceId: string = source.body.source_id;
    await registerUnits(sourceId);
    const ingestion = await postCsv(sourceId, wideCsv());
    expect(ingestion).toMatchObject({ status: 'succeeded', readings_written: UNIT_COUNT * DATES.length });

    const product = await api.post('/insurance/products', insurer, { product_id: 'unit-dekads', sheet: SHEET });
    expect(product.status).toBe(201);
    const quoteOn = (field: FieldRef) =>
      api.post('/insurance/quote', insurer, coverRequest(field, 'unit-dekads', 'drought', sourceId));

    // Before the climatology exists: a clear 422 naming it, and no policy.
    const early = await fieldIn(0);
    const refused = await quoteOn(early);
    expectProblem(refused, 422, 'no_climatology');
    expect(refused.body.detail).toContain('arc2-dekadal');

    const version = await climatologyOf(sourceId, { name: 'arc2-dekadal', years: YEARS, period: 'dekad', stat: 'sum' });

    for (const unit of [0, 1, 3, 4, 57]) {
      const field = unit === 0 ? early : await fieldIn(unit);
      const quote = await quoteOn(field);
      expect({ status: quote.status, detail: quote.body.detail }).toEqual({ status: 200, detail: undefined });
      const frozen = quote.body.data_sources.drought;
      expect(frozen).toMatchObject({
        source_id: sourceId,
        location: unitId(unit),
        climatology: { name: 'arc2-dekadal', version: 1, digest: version.digest, period: 'dekad', stat: 'sum' },
      });
      expect(frozen.climatology.normals).toHaveLength(36);
      const policyId = await issueQuoted(coverRequest(field, 'unit-dekads', 'drought', sourceId), quote);
      const backtest = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {
        as_of: `${SEASON_YEAR}-07-31`,
      });
      expect(backtest.status).toBe(200);
      expect(backtest.body.is_backtest).toBe(true);
      expect(Math.round(backtest.body.total_payout * 100)).toBe(Number(expectedPayoutMinor(unit)));
      expect(backtest.body.events[0]).toMatchObject({ peril: 'drought', index: 'dekadal_pct_of_normal' });
      // The policy holds the version it froze, whatever later versions say.
      const policy = await api.get(`/insurance/policies/${policyId}`, insurer);
      expect(policy.body.triggers[0].data_source.climatology).toEqual(frozen.climatology);
    }

    // Percentile levels (TERM-SHEETS.md §5): the season's rain below the unit's own 20th percentile of its
    // June–July totals, to nothing at its 5th, from a climatology of the season as one period.
    await climatologyOf(sourceId, { name: 'season-totals', years: YEARS, period: { window: SEASON }, stat: 'sum' });
    expect((await api.post('/insurance/products', insurer, { product_id: 'unit-p20', sheet: P20_SHEET })).status).toBe(
      201,
    );
    for (const unit of [0, 2, 4]) {
      const request = coverRequest(await fieldIn(unit), 'unit-p20', 'drought', sourceId);
      const quote = await api.post('/insurance/quote', insurer, request);
      expect({ status: quote.status, detail: quote.body.detail }).toEqual({ status: 200, detail: undefined });
      const policyId = await issueQuoted(request, quote);
      const backtest = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {
        as_of: `${SEASON_YEAR}-07-31`,
      });
      expect(backtest.status).toBe(200);
      expect(Math.round(backtest.body.total_payout * 100)).toBe(Number(expectedPercentilePayoutMinor(unit)));
    }
  }, 600_000);
});

/** NDVI in thousandths for an 8-day composite dated `date`: varied by unit and period; the season read is
 *  greener or browner by unit (0.06 less per step of `unit % 4`). */
const ndviThousandths = (unit: number, date: string): number => {
  const seed = Number(date.replaceAll('-', '')) * 17 + unit * 131;
  const ndvi = 200 + ((seed * 11) % 500);
  return date.startsWith(`${SEASON_YEAR}-`) ? ndvi - (unit % 4) * 60 : ndvi;
};

/** The first day of composite `k` (0-based) of `year`, as MODIS counts them: every 8 days from 1 January. */
const compositeDate = (year: number, k: number): string =>
  new Date(Date.UTC(year, 0, 1 + 8 * k)).toISOString().slice(0, 10);
const COMPOSITES_A_YEAR = 46;
const NDVI_SEASON = { from: '03-01', to: '05-31' };
/** The composites that start in the season read (both seasons are of common years: the same ones). */
const SEASON_COMPOSITES = Array.from({ length: COMPOSITES_A_YEAR }, (_, k) => k).filter((k) => {
  const date = compositeDate(SEASON_YEAR, k);
  return date >= `${SEASON_YEAR}-${NDVI_SEASON.from}` && date <= `${SEASON_YEAR}-${NDVI_SEASON.to}`;
});
const NDVI_DATES = Array.from({ length: SEASON_YEAR - YEARS.from + 1 }, (_, at) => YEARS.from + at).flatMap((year) =>
  Array.from({ length: COMPOSITES_A_YEAR }, (_, k) => compositeDate(year, k)).filter(
    (date) => date <= `${SEASON_YEAR}-06-30`,
  ),
);

const ndviCsv = (): string =>
  [
    ['date', ...Array.from({ length: UNIT_COUNT }, (_, at) => unitId(at))].join(','),
    ...NDVI_DATES.map((date) =>
      [date, ...Array.from({ length: UNIT_COUNT }, (_, at) => (ndviThousandths(at, date) / 1000).toString())].join(','),
    ),
  ].join('\n');

/** ⌊√n⌋ by Newton's iteration; then √(a / b) rounded half up, as INDEX-DATA §3 rounds a deviation. */
const isqrt = (n: bigint): bigint => {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) [x, y] = [y, (y + n / y) / 2n];
  return x;
};
const sqrtHalfUp = (a: bigint, b: bigint): bigint => (isqrt((4n * a) / b) + 1n) / 2n;

/**
 * The test's own figures for a unit's NDVI cover: each composite's normal (mean and sample deviation over
 * the 39 years, in millionths, half up), the season's z-score of each composite, exact, their mean I, and the
 * linear payout below −0.5 down to −2.5: SI × (−0.5 − I) / 2, half up.
 */
const expectedNdviPayoutMinor = (unit: number): bigint => {
  const n = BigInt(YEARS.to - YEARS.from + 1);
  // Σ over composites of d_p / sd_p, as N / D with D the product of the deviations.
  let numerator = 0n;
  let denominator = 1n;
  for (const k of SEASON_COMPOSITES) {
    let sum = 0n;
    let squares = 0n;
    for (let year = YEARS.from; year <= YEARS.to; year += 1) {
      const x = BigInt(ndviThousandths(unit, compositeDate(year, k)));
      sum += x;
      squares += x * x;
    }
    const mean = roundedHalfUp(sum * 1_000n, n);
    const sd = sqrtHalfUp((n * squares - sum * sum) * 1_000_000n, n * (n - 1n));
    const difference = BigInt(ndviThousandths(unit, compositeDate(SEASON_YEAR, k))) * 1_000n - mean;
    numerator = numerator * sd + difference * 1_000_000n * denominator;
    denominator *= sd;
  }
  // I = N / (count × D) millionths; depth below the trigger, (−500,000 − I), over a span of 2,000,000.
  const count = BigInt(SEASON_COMPOSITES.length);
  const depth = -500_000n * count * denominator - numerator;
  if (depth <= 0n) return 0n;
  if (depth >= 2_000_000n * count * denominator) return BigInt(SUM_INSURED_MINOR);
  return roundedHalfUp(BigInt(SUM_INSURED_MINOR) * depth, 2_000_000n * count * denominator);
};

const NDVI_SHEET = {
  schema: 'cropcover.term-sheet/2',
  name: 'Unit NDVI, the long rains’ composites as z-scores of each unit’s normal',
  season: NDVI_SEASON,
  amounts: { unit: 'share' },
  covers: [
    {
      peril: 'vegetation_stress',
      index: 'mean_ndvi_z',
      reading: 'ndvi',
      limit: 1,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'long_rains',
          window: NDVI_SEASON,
          blocks: { by: 'source_period', stat: 'mean', vs_normal: { as: 'z', climatology: { name: 'ndvi-8day' } } },
          aggregate: 'mean',
          payout: { linear: { direction: 'below', trigger: -0.5, exit: -2.5 } },
          limit: 1,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

describe('one NDVI product for every unit, its 8-day composites read against their own normals', () => {
  it('pays each unit, backtested, what the test computes from the same CSV', async () => {
    const source = await api.post('/insurance/index-sources', feed, {
      kind: 'grid',
      name: 'eMODIS unit NDVI',
      index: 'ndvi',
      resolution_deg: 0.25,
      cadence: '8_day',
    });
    expect(source.status).toBe(201);
    const sourceId: string = source.body.source_id;
    await registerUnits(sourceId);
    const ingestion = await postCsv(sourceId, ndviCsv());
    expect(ingestion).toMatchObject({ status: 'succeeded', readings_written: UNIT_COUNT * NDVI_DATES.length });
    const version = await climatologyOf(sourceId, { name: 'ndvi-8day', years: YEARS, period: '8_day', stat: 'mean' });
    expect(
      (await api.post('/insurance/products', insurer, { product_id: 'unit-ndvi', sheet: NDVI_SHEET })).status,
    ).toBe(201);

    const paid: bigint[] = [];
    for (const unit of [0, 2, 3, 7]) {
      const request = coverRequest(await fieldIn(unit), 'unit-ndvi', 'vegetation_stress', sourceId);
      const quote = await api.post('/insurance/quote', insurer, request);
      expect({ status: quote.status, detail: quote.body.detail }).toEqual({ status: 200, detail: undefined });
      expect(quote.body.data_sources.vegetation_stress).toMatchObject({
        location: unitId(unit),
        cadence: '8_day',
        climatology: { name: 'ndvi-8day', digest: version.digest, period: '8_day', stat: 'mean' },
      });
      const policyId = await issueQuoted(request, quote);
      const backtest = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {
        as_of: `${SEASON_YEAR}-${NDVI_SEASON.to}`,
      });
      expect(backtest.status).toBe(200);
      const expected = expectedNdviPayoutMinor(unit);
      expect(Math.round(backtest.body.total_payout * 100)).toBe(Number(expected));
      paid.push(expected);
    }
    // The units differ as the data does: some paid, some not, not all the whole sum insured.
    expect(paid.some((minor) => minor === 0n)).toBe(true);
    expect(paid.some((minor) => minor > 0n && minor < BigInt(SUM_INSURED_MINOR))).toBe(true);
  }, 600_000);
});
