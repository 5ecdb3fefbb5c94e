import { describe, expect, it } from 'vitest';
import type { ApiResponse, Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// SPEC §7 "Portfolio backtest" through `npm start`: the research note's acceptance tests 6 (each policy
// rounded as its own backtest) and 7 (the statistics of ten crafted seasons), asked for as a job and
// followed until done; the monitor role runs it even with the monitor's rounds off.

const suite = serviceUnderTest('e2e_portfolio_backtest', { MONITOR_ENABLED: 'false' });
const { api } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'chief-underwriter', org: 'org-book', roles: ['insurer'] };
const feed: Caller = { sub: 'book-feed', org: 'org-book', roles: ['data_provider'] };
const otherInsurer: Caller = { sub: 'elsewhere', org: 'org-elsewhere', roles: ['insurer'] };

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
/** The same month and day `years` earlier; 29 February becomes 28 February in a common year. */
const yearsBack = (date: string, years: number): string => {
  const year = Number(date.slice(0, 4)) - years;
  const monthDay = date.slice(5) === '02-29' && !isLeapYear(year) ? '02-28' : date.slice(5);
  return `${year}-${monthDay}`;
};

const term = { term_start: addDays(today(), 1), term_end: addDays(today(), 90) };

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

const rainfall = async (field: { farm_id: string; field_id: string }, days: readonly [string, number][]) => {
  const response = await api.post('/insurance/index-readings', feed, {
    readings: days.map(([date, value]) => ({ ...field, index: 'rainfall_mm', date, value })),
  });
  expect(response.status).toBe(200);
};

const programmeIn = async (currency: string): Promise<string> => {
  const created = await api.post('/insurance/programmes', insurer, { name: `Book ${currency}`, currency });
  expect(created.status).toBe(201);
  return created.body.programme_id;
};

const issueFlood = async (
  programmeId: string,
  field: { farm_id: string; field_id: string },
  sumInsured: number,
  currency: string,
): Promise<string> => {
  const issued = await api.post('/insurance/policies', insurer, {
    ...field,
    ...term,
    perils: ['flood'],
    sum_insured: sumInsured,
    currency,
    programme_id: programmeId,
  });
  expect(issued.status).toBe(201);
  return issued.body.policy_id;
};

/** Asks for the backtest and follows it until it is done. */
const backtest = async (programmeId: string, body: object): Promise<ApiResponse> => {
  const asked = await api.post(`/insurance/programmes/${programmeId}/backtests`, insurer, body);
  expect(asked.status).toBe(202);
  expect(asked.body.status).toBe('queued');
  const location = asked.headers.get('location');
  expect(location).toBe(`/insurance/programmes/${programmeId}/backtests/${asked.body.job_id}`);
  for (;;) {
    const job = await api.get(location!, insurer);
    expect(job.status).toBe(200);
    if (job.body.status === 'succeeded' || job.body.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

describe('acceptance test 6: each policy rounded as its own backtest', () => {
  it('three policies of 1,000.01 at f = 0.5 lose 1,500.03 in the season, the sum of their own backtests', async () => {
    const programmeId = await programmeIn('KES');
    const field = await fieldOf();
    // Last year's season: five days of 45 mm, a 5-day total of 225 mm, half way from 150 to 300.
    const seasonStart = yearsBack(term.term_start, 1);
    await rainfall(
      field,
      [10, 11, 12, 13, 14].map((day): [string, number] => [addDays(seasonStart, day), 45]),
    );
    const policies = [];
    for (let at = 0; at < 3; at += 1) policies.push(await issueFlood(programmeId, field, 1_000.01, 'KES'));

    const job = await backtest(programmeId, { seasons: 1 });
    expect(job.body.status).toBe('succeeded');
    const { result } = job.body;
    expect(result.seasons).toEqual([
      expect.objectContaining({ years_back: 1, gross: 1_500.03, net: 1_500.03, paying_policies: 3, paying_zones: 1 }),
    ]);
    expect(result).toMatchObject({ currency: 'KES', policies: 3, total_sum_insured: 3_000.03 });
    expect(result.inputs).toMatchObject({ readings: 5, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });

    let own = 0;
    for (const policyId of policies) {
      const evaluated = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {
        as_of: yearsBack(term.term_end, 1),
      });
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.is_backtest).toBe(true);
      own += Math.round(evaluated.body.total_payout * 100);
    }
    expect(own).toBe(150_003);
  });
});

describe('acceptance test 7: the statistics of ten seasons', () => {
  it('AAL 156,000, loss cost 0.052, 1-in-10 900,000 and no 1-in-100 from ten seasons', async () => {
    const programmeId = await programmeIn('JPY');
    const field = await fieldOf();
    // One policy of 3,000,000: a day of v mm in season y pays (v − 150) / 150 of it.
    const losses = [0, 0, 120_000, 0, 450_000, 30_000, 0, 0, 900_000, 60_000];
    await rainfall(
      field,
      losses.map((loss, at): [string, number] => [
        addDays(yearsBack(term.term_start, at + 1), 20),
        loss === 0 ? 100 : 150 + (loss * 150) / 3_000_000,
      ]),
    );
    await issueFlood(programmeId, field, 3_000_000, 'JPY');

    const job = await backtest(programmeId, { seasons: 10, apply_treaties: false });
    expect(job.body.status).toBe('succeeded');
    const { result } = job.body;
    expect(result.seasons.map((season: { gross: number }) => season.gross)).toEqual(losses);
    expect(result.gross).toMatchObject({
      seasons: 10,
      average_annual_loss: 156_000,
      loss_cost: 0.052,
      maximum: 900_000,
    });
    const periods = Object.fromEntries(
      result.gross.return_periods.map((point: { years: number }) => [point.years, point]),
    );
    expect(periods[10]).toEqual({ years: 10, loss: 900_000, empirical_return_period: 10 });
    expect(periods[100]).toEqual({ years: 100, loss: null, reason: 'insufficient_seasons' });
    expect(result.zones).toEqual([
      expect.objectContaining({ sum_insured: 3_000_000, triggered_seasons: [3, 5, 6, 9, 10] }),
    ]);
    expect(result.zones[0].worst_season).toEqual({ years_back: 9, loss: 900_000 });
  });
});

describe('what the backtest refuses', () => {
  it('answers a clear problem for a bad request, another organization’s programme and an unknown job', async () => {
    const programmeId = await programmeIn('USD');
    expect((await api.post(`/insurance/programmes/${programmeId}/backtests`, insurer, { seasons: 41 })).status).toBe(
      400,
    );
    expectProblem(
      await api.post(`/insurance/programmes/${programmeId}/backtests`, insurer, { as_of: addDays(today(), 2) }),
      422,
      'as_of_in_future',
    );
    expectProblem(
      await api.post(`/insurance/programmes/${programmeId}/backtests`, otherInsurer, {}),
      404,
      'programme_not_found',
    );
    expectProblem(
      await api.get(`/insurance/programmes/${programmeId}/backtests/no-such-job`, insurer),
      404,
      'backtest_not_found',
    );
    // Nothing was recorded: the first job asked for is the only one, and it runs.
    const job = await backtest(programmeId, {});
    expect(job.body).toMatchObject({ status: 'succeeded', seasons: 20, apply_treaties: true });
    expect(job.body.result).toMatchObject({ policies: 0, total_sum_insured: 0 });
  });
});
