import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
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

describe('the course, day by day, against live evaluations', () => {
  const fourPerils = issuedPolicyAfter(
    policyIssuedEvents({
      perils: ['drought', 'flood', 'vegetation_stress', 'storm'],
      termStart: '2026-04-01',
      termEnd: '2026-06-29',
    }),
  );
  /** Readings on some days of the term and around it, in any order, some dates twice. */
  const readingsOf = (maximum: number) =>
    fc.array(
      fc.record({
        date: fc.integer({ min: -5, max: 95 }).map((day) => addDays('2026-04-01', day)),
        value: fc.oneof(
          fc.integer({ min: 0, max: maximum * 10 }).map((tenths) => tenths / 10),
          fc.double({ min: 0, max: maximum, noNaN: true }),
        ),
        revision: fc.constant(1),
      }),
      { maxLength: 120 },
    );

  it('is, on every day, the aggregate and reading a live evaluation as of that day reads', () => {
    fc.assert(
      fc.property(
        readingsOf(80),
        readingsOf(1),
        readingsOf(60),
        fc.integer({ min: 0, max: 100 }),
        (rain, ndvi, wind, daysIn) => {
          const readings = { drought: rain, flood: rain, vegetation_stress: ndvi, storm: wind };
          const today = addDays('2026-04-01', daysIn);
          for (const course of triggerCourses(fourPerils, readings, today)) {
            const ofPeril = readings[course.peril as keyof typeof readings];
            for (const day of course.days) {
              const status = liveTriggerStatus(fourPerils, readings, day.date).find(
                (trigger) => trigger.peril === course.peril,
              )!;
              expect(day.observed_value).toBe(status.current_index_reading);
              const last = ofPeril.findLast((reading) => reading.date === day.date);
              if (last === undefined) expect(day.value).toBeNull();
              // At the evaluation's 6 decimals.
              else expect(day.value).toBeCloseTo(last.value, 6);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
