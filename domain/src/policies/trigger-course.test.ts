import { describe, expect, it } from 'vitest';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { dailyReadings } from '../testing/readings';
import { triggerCourses } from './trigger-course';
import { liveTriggerStatus } from './trigger-status';

const policy = issuedPolicyAfter(
  policyIssuedEvents({ perils: ['drought', 'flood'], termStart: '2026-04-01', termEnd: '2026-04-10' }),
);
const rain = dailyReadings('2026-04-01', [10, 0, 60, 80, 20, 5]);
const readings = { drought: rain, flood: rain };

describe('the course of each trigger through its window', () => {
  it('gives, for each day so far, the aggregate a live evaluation as of that day reads', () => {
    const [drought, flood] = triggerCourses(policy, readings, '2026-04-06');
    expect(drought!.days.map((day) => day.observed_value)).toEqual([10, 10, 70, 150, 170, 175]);
    expect(flood!.days.map((day) => day.observed_value)).toEqual([10, 10, 70, 150, 170, 170]);
    for (const [index, date] of drought!.days.map((day) => day.date).entries()) {
      const statuses = liveTriggerStatus(policy, readings, date);
      expect(drought!.days[index]!.observed_value).toBe(statuses[0]!.current_index_reading);
      expect(flood!.days[index]!.observed_value).toBe(statuses[1]!.current_index_reading);
    }
  });

  it("gives each day's reading beside the aggregate, null on a day without one", () => {
    const [drought] = triggerCourses(policy, { drought: dailyReadings('2026-04-02', [4, 6]) }, '2026-04-04');
    expect(drought!.days.map((day) => day.value)).toEqual([null, 4, 6, null]);
  });

  it('carries the frozen trigger, exit, window and data source of each cover', () => {
    const [drought] = triggerCourses(policy, readings, '2026-04-06');
    expect(drought).toMatchObject({
      peril: 'drought',
      trigger_index: 'cumulative_rainfall_mm',
      reading: 'rainfall_mm',
      comparison: 'lte',
      trigger: 20,
      exit: 8,
      window_start: '2026-04-01',
      window_end: '2026-04-10',
      data_source: { source_id: 'organization-fields:org-1', location: 'farm-1/north', index: 'rainfall_mm' },
    });
  });

  it('stops at term end, shows a day the data cannot evaluate as null, and has no day before the term', () => {
    const gappy = { drought: dailyReadings('2026-04-01', [1, 1, 1, 1, 1, 1, 1, 1]) };
    const [drought] = triggerCourses(policy, gappy, '2026-05-20');
    expect(drought!.days.map((day) => day.date)).toHaveLength(10);
    // Eight readings of ten days is below the 90% a sum needs.
    expect(drought!.days.at(-1)!.observed_value).toBeNull();
    expect(drought!.days.at(7)!.observed_value).toBe(8);
    expect(triggerCourses(policy, gappy, '2026-03-31')[0]!.days).toEqual([]);
  });
});
