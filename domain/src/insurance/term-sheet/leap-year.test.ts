import { describe, expect, it } from 'vitest';
import { PRF_JAN_FEB_SHEET } from '../../testing/example-sheets';
import { addDays } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { addRationals, compareRationals, multiplyRationals, rationalOf, rationalOfDecimal } from '../money/rational';
import { rateCover } from '../pricing/pricing';
import { evaluateCover } from './evaluate-cover';
import { minorUnitsOfShare } from './sheet-money';
import { validateTermSheet, windowErrors } from './validate';
import { seasonStartingIn, seasonsBackOf } from './windows';

// Issue 32: a PRF-style sheet — January and February as one block of 59 days — validated and registered,
// then answered 500 on a leap-year backtest, 422 on the 2028 season and priced a dry 2024 as no loss. The
// interval is all of January and February in every year, 29 February included (docs/decisions.md).

const sheet = PRF_JAN_FEB_SHEET;
const cover = sheet.covers[0]!;
const seasonOf = (year: number): CoverTerm => seasonStartingIn(sheet.season!, year);

/** 1 mm a day, 10 mm on 29 February when the year has one. */
const rain = (season: CoverTerm): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = season.start; date <= season.end; date = addDays(date, 1)) {
    readings.push({ date, value: date.endsWith('-02-29') ? 10 : 1, revision: 1 });
  }
  return readings;
};

const dueOn = (season: CoverTerm): number => {
  const outcome = evaluateCover(
    { cover, amounts: sheet.amounts, term: season, readings: dayValuesIn(rain(season), season.start, season.end) },
    addDays(season.end, 15),
  );
  return minorUnitsOfShare(outcome.share, 1_000_000, 'half_up');
};

describe('a PRF-style Jan–Feb interval in leap and common years (issue 32)', () => {
  it('validates, and its 2028 season is sold: January 1 to February 29, one block', () => {
    expect(validateTermSheet(sheet)).toEqual([]);
    expect(seasonOf(2028)).toEqual({ start: '2028-01-01', end: '2028-02-29' });
    expect(seasonOf(2027)).toEqual({ start: '2027-01-01', end: '2027-02-28' });
    expect(windowErrors(sheet, seasonOf(2028))).toEqual([]);
    expect(windowErrors(sheet, seasonOf(2100))).toEqual([]);
  });

  it('counts 29 February in the interval: 69 mm of a 100 mm normal in 2028 pays 21/90, 59 mm in 2027 31/90', () => {
    expect(dueOn(seasonOf(2028))).toBe(233_333);
    expect(dueOn(seasonOf(2027))).toBe(344_444);
    expect(dueOn(seasonOf(2000))).toBe(233_333);
    expect(dueOn(seasonOf(2100))).toBe(344_444);
  });

  it('backtests and prices the 2024 season as all of January and February 2024', () => {
    const sold = seasonOf(2027);
    expect(seasonsBackOf(sheet, sold)(3)).toEqual({ start: '2024-01-01', end: '2024-02-29' });
    const { perils } = rateCover(
      {
        perils: ['drought'],
        hasIrrigation: false,
        term: sold,
        today: '2026-12-01',
        history: { drought: rain(seasonOf(2024)) },
      },
      { ref: { product_id: 'prf', version: 1, digest: 'sha256:prf' }, sheet },
    );
    expect(perils[0]!.seasonsUsed).toBe(1);
    // Z · loading · L + (1 − Z) · B with one season of loss 21/90 (233,333 ppm) and k = 10.
    const expected = addRationals(
      multiplyRationals(rationalOf(233_333n, 11_000_000n), rationalOfDecimal(1.3)),
      multiplyRationals(rationalOf(10n, 11n), rationalOfDecimal(0.05)),
    );
    expect(compareRationals(perils[0]!.rate, expected)).toBe(0);
  });
});
