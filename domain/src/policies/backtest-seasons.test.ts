import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import { insuredFarm, insurer } from '../testing/insured-farm';
import { reading } from '../testing/readings';
import { backtestPolicy } from './backtest-policy';
import { issuePolicy } from './issue-policy';
import { evolvePolicy, type IssuedPolicy, initialPolicy } from './policy';

// SPEC §7: seasons shifted back by whole years map 29 Feb to 28 Feb, and a term-day threshold (drought)
// is computed from the shifted season's own day count.

/** A 366-day drought cover over a leap year, issued on its first day. */
const leapCover = (): IssuedPolicy => {
  const state = issuePolicy(
    {
      actor: insurer,
      policyId: 'policy-1',
      environment: 'sandbox',
      request: {
        farm_id: 'farm-1',
        field_id: 'north',
        perils: ['drought'],
        sum_insured: 10_000,
        term_start: '2027-03-01',
        term_end: '2028-02-29',
      },
      farm: insuredFarm,
      dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', ['drought']),
      history: {},
      settlementPeriodDays: 30,
      now: new Date('2027-03-01T08:00:00.000Z'),
    },
    initialPolicy,
  ).reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

/** `mmPerDay` every day from `from` to `to`. */
const steadyRain = (from: string, to: string, mmPerDay: number) => {
  const readings = [];
  for (let date = from; date <= to; date = addDays(date, 1)) readings.push(reading(date, mmPerDay));
  return readings;
};

describe('backtesting a leap-year cover on a common-year season', () => {
  it('judges exactly 2 mm a day over the 365-day season against 730 mm, not the term’s 732 mm', () => {
    // Reproduces issue 10 (7): the season 2026-03-01 … 2027-02-28 has 365 days, so 2 mm a day is 730 mm,
    // which read as a drought against the frozen 732 mm (severity 2/439.2) and paid 45.54.
    const policy = leapCover();
    expect(policy.issued.triggers[0]).toMatchObject({ threshold: 732, exit: 292.8 });
    const result = backtestPolicy(
      {
        actor: insurer,
        asOf: '2027-02-28',
        readings: { drought: steadyRain('2026-03-01', '2027-02-28', 2) },
        now: new Date('2027-03-02T08:00:00.000Z'),
      },
      policy,
    );
    // Exactly at the season's own threshold: a breach of severity 0, which pays nothing.
    expect(result.events).toEqual([
      expect.objectContaining({ peril: 'drought', observed_value: 730, threshold: 730, severity: 0 }),
    ]);
    expect(result.total_payout).toBe(0);
  });

  it('pays a real drought on the season’s own scale: 1 mm a day over 365 days', () => {
    // Threshold 730, exit 0.8 × 365 = 292: (730 − 365) / (730 − 292) = 0.833333.
    const result = backtestPolicy(
      {
        actor: insurer,
        asOf: '2027-02-28',
        readings: { drought: steadyRain('2026-03-01', '2027-02-28', 1) },
        now: new Date('2027-03-02T08:00:00.000Z'),
      },
      leapCover(),
    );
    expect(result.events).toEqual([
      expect.objectContaining({ observed_value: 365, threshold: 730, breached: true, severity: 0.833333 }),
    ]);
  });
});
