import type { PolicyEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import { insuredFarm, insurer } from '../testing/insured-farm';
import { dailyReadings as daily, reading } from '../testing/readings';
import { issuePolicy } from './issue-policy';
import { evolvePolicy, type IssuedPolicy, initialPolicy } from './policy';
import { liveTriggerStatus, liveTriggerWindow } from './trigger-status';

const term = { start: '2026-04-01', end: '2026-05-30' };
const policy = ((): IssuedPolicy => {
  const events: PolicyEvent[] = issuePolicy(
    {
      actor: insurer,
      policyId: 'policy-1',
      environment: 'sandbox',
      request: {
        farm_id: 'farm-1',
        field_id: 'north',
        perils: ['drought', 'flood', 'vegetation_stress', 'storm'],
        sum_insured: 10_000,
        term_start: term.start,
        term_end: term.end,
      },
      farm: insuredFarm,
      dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', ['drought', 'flood', 'vegetation_stress', 'storm']),
      history: {},
      settlementPeriodDays: 30,
      now: new Date('2026-03-28T08:00:00.000Z'),
    },
    initialPolicy,
  );
  const state = events.reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
})();

/** The organization's own readings of the field, as the policy froze them. */
const ownField = (index: 'rainfall_mm' | 'ndvi' | 'wind_speed_ms') => ({
  source_id: 'organization-fields:org-1',
  kind: 'field',
  index,
  location: 'farm-1/north',
});

const statusOf = (peril: string, statuses: ReturnType<typeof liveTriggerStatus>) =>
  statuses.find((status) => status.peril === peril);

describe('the live trigger status of a policy', () => {
  it('is the aggregate so far over [term start, today] under the frozen terms, for every peril', () => {
    const rain = daily('2026-04-01', [10, 0, 60, 80, 20, 5]);
    // The wind came from a station network's file: the status names it, as provenance would.
    const windFile = { sha256: 'e'.repeat(64), label: 'final' };
    const wind = daily('2026-04-02', [12, 31.5]).map((one) => ({ ...one, files: [windFile] }));
    const statuses = liveTriggerStatus(policy, { drought: rain, flood: rain, storm: wind }, '2026-04-06');
    expect(statuses).toEqual([
      {
        peril: 'drought',
        trigger_index: 'cumulative_rainfall_mm',
        current_index_reading: 175,
        trigger_threshold: 120,
        comparison: 'lte',
        data_available: true,
        coverage: { days_with_reading: 6, days_in_window: 6 },
        data_source: ownField('rainfall_mm'),
        files: [],
      },
      {
        peril: 'flood',
        trigger_index: 'max_5day_rainfall_mm',
        current_index_reading: 170,
        trigger_threshold: 150,
        comparison: 'gte',
        data_available: true,
        coverage: { days_with_reading: 6, days_in_window: 6 },
        data_source: ownField('rainfall_mm'),
        files: [],
      },
      {
        peril: 'vegetation_stress',
        trigger_index: 'mean_ndvi_30d',
        current_index_reading: null,
        trigger_threshold: 0.35,
        comparison: 'lte',
        data_available: false,
        skipped_reason: 'no_data',
        data_source: ownField('ndvi'),
      },
      {
        peril: 'storm',
        trigger_index: 'max_wind_speed_ms',
        current_index_reading: 31.5,
        trigger_threshold: 25,
        comparison: 'gte',
        data_available: true,
        coverage: { days_with_reading: 2, days_in_window: 6 },
        data_source: ownField('wind_speed_ms'),
        files: [{ ...windFile, values: 2 }],
      },
    ]);
  });

  it('has data but no drought reading while the days read so far are under 90% of the window', () => {
    const rainfall = daily('2026-04-01', [4, 0, 4, 0]).filter((_, at) => at % 2 === 0);
    const drought = statusOf('drought', liveTriggerStatus(policy, { drought: rainfall }, '2026-04-04'));
    expect(drought).toMatchObject({
      current_index_reading: null,
      data_available: true,
      skipped_reason: 'incomplete_data',
    });
    expect(drought).not.toHaveProperty('coverage');
  });

  it('ignores readings dated after today or outside the term', () => {
    const rainfall = [reading('2026-03-31', 500), reading('2026-04-02', 7), reading('2026-04-09', 900)];
    const flood = statusOf('flood', liveTriggerStatus(policy, { flood: rainfall }, '2026-04-05'));
    expect(flood).toMatchObject({ current_index_reading: 7, data_available: true });
    const afterTerm = [reading('2026-05-31', 300)];
    expect(statusOf('flood', liveTriggerStatus(policy, { flood: afterTerm }, '2026-06-10'))).toMatchObject({
      current_index_reading: null,
      data_available: false,
    });
  });

  it('has data but no reading when the window has NDVI only before its last 30 days', () => {
    const vegetation = statusOf(
      'vegetation_stress',
      liveTriggerStatus(policy, { vegetation_stress: daily('2026-04-01', [0.5, 0.5]) }, '2026-05-15'),
    );
    expect(vegetation).toMatchObject({ current_index_reading: null, data_available: true, skipped_reason: 'no_data' });
  });

  it('has neither data nor a reading before the term begins', () => {
    const rain = daily('2026-03-25', [50, 50, 50]);
    const early = liveTriggerStatus(policy, { drought: rain, flood: rain }, '2026-03-30');
    expect(early.every((status) => status.current_index_reading === null && !status.data_available)).toBe(true);
    expect(liveTriggerWindow(policy, '2026-03-30')).toBeUndefined();
  });

  it('reads the window up to today, clipped to the term end', () => {
    expect(liveTriggerWindow(policy, '2026-04-06')).toEqual({ start: '2026-04-01', end: '2026-04-06' });
    expect(liveTriggerWindow(policy, '2026-08-01')).toEqual({ start: '2026-04-01', end: '2026-05-30' });
  });
});
