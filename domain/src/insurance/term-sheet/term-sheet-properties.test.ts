import { type TermSheet, TermSheet as TermSheetSchema } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEASON_2026, seasonReadingsArbitrary, termSheetArbitrary } from '../../testing/sheet-arbitraries';
import { addDays } from '../calendar/calendar-date';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { evaluateCover } from './evaluate-cover';
import { minorUnitsOfShare, sheetRounding } from './sheet-money';
import { validateTermSheet } from './validate';

// Properties of the engine over random valid sheets (every concept of TERM-SHEETS.md §1.2 but sowing).

/** A sheet with one cover's readings over the season, some days dropped, and a day to evaluate on. */
const scenario = termSheetArbitrary.chain((sheet) =>
  fc.record({
    sheet: fc.constant(sheet),
    readings: fc.tuple(...sheet.covers.map((cover) => seasonReadingsArbitrary(cover.reading))),
    // Mostly read, sometimes barely: both sides of every min_coverage are drawn.
    dropped: fc.array(fc.boolean(), { minLength: 183, maxLength: 183 }).chain((mask) =>
      fc.constantFrom(
        mask,
        mask.map((drop, at) => drop && at % 7 === 0),
        mask.map((drop, at) => drop && at % 30 === 0),
      ),
    ),
    asOf: fc.integer({ min: -5, max: 190 }).map((day) => addDays(SEASON_2026.start, day)),
  }),
);

/** What each cover of the sheet is due, in minor units of a 1,000,000 sum insured (the basis of a
 *  `minor` sheet), as of `asOf`. */
const dues = (sheet: TermSheet, readings: readonly (readonly IndexObservation[])[], asOf: string): number[] =>
  sheet.covers.map((cover, at) => {
    const outcome = evaluateCover(
      {
        cover,
        amounts: sheet.amounts,
        term: SEASON_2026,
        readings: dayValuesIn(readings[at] ?? [], SEASON_2026.start, SEASON_2026.end),
      },
      asOf,
    );
    const sumInsured = sheet.amounts.unit === 'minor' ? sheet.amounts.sum_insured_minor : 1_000_000;
    return minorUnitsOfShare(outcome.share, sumInsured, sheetRounding(sheet));
  });

describe('term sheets drawn at random', () => {
  it('are valid sheets, in shape and by every rule', () => {
    fc.assert(
      fc.property(termSheetArbitrary, (sheet) => {
        expect(TermSheetSchema.safeParse(sheet).error).toBeUndefined();
        expect(validateTermSheet(sheet)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('a missing day never creates a payout or deepens one, on any cover of any sheet', () => {
    fc.assert(
      fc.property(scenario, ({ sheet, readings, dropped, asOf }) => {
        const gappy = readings.map((series) => series.filter((_, at) => !dropped[at]));
        const truth = dues(sheet, readings, asOf);
        dues(sheet, gappy, asOf).forEach((due, at) => {
          expect(due).toBeLessThanOrEqual(truth[at]!);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('evaluate as a pure function of (sheet, readings, as of): a copy of the sheet, the readings in another order and duplicated, other days evaluated first', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 182 }), ({ sheet, readings, asOf }, earlier) => {
        const alone = dues(sheet, readings, asOf);
        const copy: TermSheet = JSON.parse(JSON.stringify(sheet));
        const shuffled = readings.map((series) => [...series].reverse().concat(series.slice(0, 3)));
        // The same sheet object evaluated on another day first, as a monitor pass does across policies.
        dues(sheet, readings, addDays(SEASON_2026.start, earlier));
        expect(dues(sheet, readings, asOf)).toEqual(alone);
        expect(dues(copy, shuffled, asOf)).toEqual(alone);
      }),
      { numRuns: 200 },
    );
  });
});
