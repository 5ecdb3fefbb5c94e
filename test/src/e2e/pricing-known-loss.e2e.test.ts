import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// Issue 10 over HTTP through `npm start`, each problem reproduced and shown fixed: (3) cover bought on a
// loss already in the data, (5) pricing that ignored the term and jumped at 10 seasons, had no cap and
// could round to nothing, (6) currencies that followed Node's ICU, (7) a leap term judged against
// seasons of another length.

const suite = serviceUnderTest('e2e_pricing_known_loss', { MONITOR_ENABLED: 'false' });
const { api } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter', org: 'org-pricing', roles: ['insurer'] };
// A policy naming no source reads the field readings of its own organization's data providers.
const insurersFeed: Caller = { sub: 'pricing-feed', org: 'org-pricing', roles: ['data_provider'] };
const rogueFeed: Caller = { sub: 'rogue-feed', org: 'org-rogue', roles: ['data_provider'] };

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / DAY_MS;
const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
/** The same month and day `years` earlier; 29 February becomes 28 February in a common year. */
const yearsBack = (date: string, years: number): string => {
  const year = Number(date.slice(0, 4)) - years;
  const monthDay = date.slice(5) === '02-29' && !isLeapYear(year) ? '02-28' : date.slice(5);
  return `${year}-${monthDay}`;
};

const fieldOf = async () => {
  const owner: Caller = { sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${sequence}`,
    name: 'Plot',
    area_ha: 2,
    location: { lat: -1.29, lon: 36.82 },
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

/** One reading a day of `index` from `from` to yesterday, `valueOn(date)`, in one request. */
const history = async (
  field: { farm_id: string; field_id: string },
  index: string,
  from: string,
  valueOn: (date: string) => number,
) => {
  const days = daysBetween(from, today());
  const values = Array.from({ length: days }, (_, day) => valueOn(addDays(from, day)));
  await recordReadings(api, insurersFeed, field, index, from, values);
};

const policyCount = async (): Promise<number> => {
  const list = await api.get('/insurance/policies', insurer);
  expect(list.status).toBe(200);
  return list.body.total;
};

describe('known loss (issue 10, problem 3)', () => {
  it('refuses quote and issue on a storm already in the data, records nothing, and then pays nothing', async () => {
    const field = await fieldOf();
    // Calm wind from a week ago, 45 m/s three days ago: the storm the cover would have been bought on.
    await recordReadings(api, insurersFeed, field, 'wind_speed_ms', addDays(today(), -7), [6, 7, 5, 6, 45, 8, 7]);
    const cover = {
      ...field,
      perils: ['storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -7),
      term_end: addDays(today(), 90),
    };
    const before = await policyCount();

    const quote = await api.post('/insurance/quote', insurer, cover);
    expectProblem(quote, 422, 'known_loss');
    expect(quote.body.detail).toBe(
      `storm is already breached on the data available: max_wind_speed_ms 45 ≥ threshold 25 over ${cover.term_start} to ${today()}`,
    );
    const issued = await api.post('/insurance/policies', insurer, cover);
    expectProblem(issued, 422, 'known_loss');
    expect(issued.body.detail).toContain('storm is already breached');
    expect(await policyCount()).toBe(before);

    // The same cover starting tomorrow covers only what is still to come: issued.
    const later = await api.post('/insurance/policies', insurer, { ...cover, term_start: addDays(today(), 1) });
    expect(later.status).toBe(201);
    expect(await policyCount()).toBe(before + 1);
  });

  it('judges the loss on the policy’s own data only: another organization’s storm does not refuse the cover', async () => {
    const field = await fieldOf();
    await recordReadings(api, insurersFeed, field, 'wind_speed_ms', addDays(today(), -3), [6, 7, 5]);
    // Another organization's feed posts a storm on the same field; the policy never reads it.
    await recordReadings(api, rogueFeed, field, 'wind_speed_ms', addDays(today(), -3), [45, 45, 45]);
    const issued = await api.post('/insurance/policies', insurer, {
      ...field,
      perils: ['storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: addDays(today(), -3),
      term_end: addDays(today(), 90),
    });
    expect(issued.status).toBe(201);
  });
});

describe('pricing (issue 10, problem 5)', () => {
  const quote = (field: { farm_id: string; field_id: string }, changes: Record<string, unknown> = {}) =>
    api.post('/insurance/quote', insurer, {
      ...field,
      perils: ['drought'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: today(),
      term_end: addDays(today(), 364),
      ...changes,
    });

  it('charges a term its exposure: a 7-day cover is not priced like a 366-day cover', async () => {
    const field = await fieldOf();
    const week = await quote(field, { term_end: addDays(today(), 6) });
    const leap = await quote(field, { term_end: addDays(today(), 365) });
    expect(week.status).toBe(200);
    expect(leap.status).toBe(200);
    // Both used to cost 0.05 × 10,000 = 500. Now 0.05 × 7/365 × 10,000 = 9.589… → 9.59 and
    // 0.05 × 366/365 × 10,000 = 501.369… → 501.37.
    expect(week.body).toMatchObject({ rate: 0.000959, premium: 9.59 });
    expect(leap.body).toMatchObject({ rate: 0.050137, premium: 501.37 });
  });

  it('moves smoothly from 9 to 10 seasons of an identical climate', async () => {
    // 3 mm of rain every day never meets the drought trigger (2 mm × term days): burning cost 0.
    const nine = await fieldOf();
    const ten = await fieldOf();
    await history(nine, 'rainfall_mm', yearsBack(today(), 9), () => 3);
    await history(ten, 'rainfall_mm', yearsBack(today(), 10), () => 3);
    const withNine = await quote(nine);
    const withTen = await quote(ten);
    // It used to jump from the base 0.05 (9 seasons) to the floor 0.025 (10). With Z = n / (n + 10):
    // 9 seasons (1 − 9/19) × 0.05 = 1/38 = 0.026316 → 263.157… → 263.16; 10 seasons 0.5 × 0.05 = 0.025 → 250.
    expect(withNine.body).toMatchObject({
      rate: 0.026316,
      premium: 263.16,
      breakdown: { drought: { method: 'burning_cost', seasons_used: 9, credibility: 0.473684 } },
    });
    expect(withTen.body).toMatchObject({
      rate: 0.025,
      premium: 250,
      breakdown: { drought: { method: 'burning_cost', seasons_used: 10, credibility: 0.5 } },
    });
  });

  it('refuses a cover whose rate reaches 0.5 as uninsurable, and a premium below one cent', async () => {
    const field = await fieldOf();
    // A 45 m/s storm in every one of the last 10 seasons: burning cost 1 × 1.3, blended 0.5 × 1.3 +
    // 0.5 × 0.02 = 0.66, which used to be charged as it was.
    const seasonStarts = new Set(Array.from({ length: 10 }, (_, years) => yearsBack(today(), years + 1)));
    await history(field, 'wind_speed_ms', yearsBack(today(), 10), (date) => (seasonStarts.has(date) ? 45 : 6));
    const before = await policyCount();
    const storm = { perils: ['storm'] };
    const uninsurable = await quote(field, storm);
    expectProblem(uninsurable, 422, 'uninsurable');
    expect(uninsurable.body.detail).toContain("the cover's rate 0.66 reaches the maximum of 0.5");
    const issued = await api.post('/insurance/policies', insurer, {
      ...field,
      ...storm,
      sum_insured: 10000,
      currency: 'USD',
      term_start: today(),
      term_end: addDays(today(), 364),
    });
    expectProblem(issued, 422, 'uninsurable');

    // USD 0.01 insured: 0.05 of a cent used to be a premium of 0.
    const tiny = await quote(await fieldOf(), { sum_insured: 0.01 });
    expectProblem(tiny, 422, 'premium_too_small');
    expect(await policyCount()).toBe(before);
  });
});

describe('currencies (issue 10, problem 6)', () => {
  it('takes CLF and UYW with 4 decimals and refuses the withdrawn HRK and SLL', async () => {
    const field = await fieldOf();
    const cover = { ...field, perils: ['flood'], term_start: today(), term_end: addDays(today(), 364) };
    for (const currency of ['CLF', 'UYW']) {
      const quoted = await api.post('/insurance/quote', insurer, { ...cover, currency, sum_insured: 1000.1234 });
      expect(quoted.status).toBe(200);
      // 1000.1234 × 0.03 = 30.003702 → 30.0037, to the ten-thousandth.
      expect(quoted.body).toMatchObject({ currency, sum_insured: 1000.1234, premium: 30.0037 });
    }
    for (const currency of ['HRK', 'SLL']) {
      const refused = await api.post('/insurance/quote', insurer, { ...cover, currency, sum_insured: 1000 });
      expectProblem(refused, 400, 'validation_failed');
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'currency' })]);
    }
    const sle = await api.post('/insurance/quote', insurer, { ...cover, currency: 'SLE', sum_insured: 1000 });
    expect(sle.status).toBe(200);
  });
});

describe('leap seasons (issue 10, problem 7)', () => {
  it('backtests a 366-day term on a 365-day season against the season’s own 730 mm', async () => {
    // A 366-day drought cover: from 1 March before the next 29 February that starts no earlier than today.
    let leapYear = Number(today().slice(0, 4));
    while (!isLeapYear(leapYear) || `${leapYear - 1}-03-01` < today()) leapYear += 1;
    const termStart = `${leapYear - 1}-03-01`;
    const termEnd = `${leapYear}-02-29`;
    const field = await fieldOf();
    const issued = await api.post('/insurance/policies', insurer, {
      ...field,
      perils: ['drought'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: termStart,
      term_end: termEnd,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.triggers[0]).toMatchObject({ trigger_threshold: 732 });

    // The latest past season of 365 days that has ended: 1 March to 28 February of a common year.
    let years = 1;
    while (yearsBack(termEnd, years) >= today() || isLeapYear(leapYear - years)) years += 1;
    const season = { start: yearsBack(termStart, years), end: yearsBack(termEnd, years) };
    expect(daysBetween(season.start, season.end) + 1).toBe(365);
    const days = daysBetween(season.start, season.end) + 1;
    await recordReadings(api, insurersFeed, field, 'rainfall_mm', season.start, Array(days).fill(2));

    const backtest = await api.post(`/insurance/policies/${issued.body.policy_id}/evaluate`, insurer, {
      as_of: season.end,
    });
    expect(backtest.status).toBe(200);
    // Exactly 2 mm a day is 730 mm: it used to read as a drought against the term's 732 mm (severity
    // 2/439.2, USD 45.54). Against the season's own 2 mm × 365 = 730 mm it is exactly at the threshold:
    // severity 0, nothing paid.
    expect(backtest.body).toMatchObject({
      is_backtest: true,
      events: [{ peril: 'drought', observed_value: 730, threshold: 730, severity: 0 }],
      total_payout: 0,
    });
  });
});
