import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { sheetDigest } from '../insurance/term-sheet/sheet-digest';
import { KHARIF_DEFICIT_SHEET } from '../testing/example-sheets';
import { insurer } from '../testing/insured-farm';
import { issuedPolicyAfter, policyIssuedEvents } from '../testing/issued-policy';
import { dailyReadings } from '../testing/readings';
import { evaluatePolicy } from './evaluate-policy';
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

describe('the course of each phase of a cover of several phases', () => {
  // Example B (TERM-SHEETS.md §1.4): three phases of dekad-capped rain, each with its own window and levels.
  const kharif = issuedPolicyAfter(
    policyIssuedEvents({
      perils: ['drought'],
      currency: 'INR',
      sumInsured: 30_000,
      termStart: '2026-06-01',
      termEnd: '2026-09-30',
      product: {
        ref: { product_id: 'kharif-deficit', version: 1, digest: sheetDigest(KHARIF_DEFICIT_SHEET) },
        sheet: KHARIF_DEFICIT_SHEET,
      },
    }),
  );
  /** 3 mm a day for ten days, 1 mm for ten, then 2 mm a day. */
  const rain: IndexObservation[] = [
    ...dailyReadings('2026-06-01', Array(10).fill(3)),
    ...dailyReadings('2026-06-11', Array(10).fill(1)),
    ...dailyReadings('2026-06-21', Array(30).fill(2)),
  ];

  it('gives each phase its window, trigger, exit and index day by day over its window so far', () => {
    const [drought] = triggerCourses(kharif, { drought: rain }, '2026-07-05');
    const [establishment, vegetative, flowering] = drought!.phases!;
    expect(establishment).toMatchObject({
      phase: 'establishment',
      window_start: '2026-06-01',
      window_end: '2026-06-30',
      comparison: 'lte',
      trigger: 100,
      exit: 40,
    });
    expect(establishment!.days.map((day) => day.date)).toEqual(
      Array.from({ length: 30 }, (_, day) => addDays('2026-06-01', day)),
    );
    expect(establishment!.days.map((day) => day.observed_value).filter((_, day) => day % 10 === 9)).toEqual([
      30, 40, 60,
    ]);
    expect(vegetative).toMatchObject({ window_start: '2026-07-01', window_end: '2026-08-10', trigger: 150, exit: 60 });
    expect(vegetative!.days.map((day) => day.observed_value)).toEqual([2, 4, 6, 8, 10]);
    // Not open yet: its window and levels, no day.
    expect(flowering).toMatchObject({ window_start: '2026-08-11', window_end: '2026-09-30', trigger: 160, days: [] });
    // The cover's own line is its governing phase's, as the evaluations show it.
    expect(drought!.days).toHaveLength(35);
  });

  it("is, on each day, the phase's index a live evaluation as of that day records", () => {
    const [drought] = triggerCourses(kharif, { drought: rain }, '2026-07-05');
    for (const date of ['2026-06-04', '2026-06-30', '2026-07-03']) {
      const evaluated = evaluatePolicy(
        { actor: insurer, evaluationId: date, readings: { drought: rain }, now: new Date(`${date}T12:00:00Z`) },
        kharif,
      ).find((event) => event.type === 'TriggerEvaluated');
      if (evaluated?.type !== 'TriggerEvaluated') throw new Error(`no evaluation on ${date}`);
      for (const phase of evaluated.data.phases!) {
        const course = drought!.phases!.find((candidate) => candidate.phase === phase.phase)!;
        // A closed phase keeps the index of its window's last day.
        const day = date > course.window_end! ? course.days.at(-1) : course.days.find((one) => one.date === date);
        expect(day?.observed_value ?? null).toBe(phase.observed_value ?? null);
      }
    }
  });

  it('leaves phases out of a cover of one phase', () => {
    for (const course of triggerCourses(policy, readings, '2026-04-06')) expect(course).not.toHaveProperty('phases');
  });
});
