import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalPlaces, hasAtMostDecimals } from './money-amount';
import { TermSheet } from './term-sheet';

// The shape of a term sheet (TERM-SHEETS.md §2.2): what breaks it is a 400 `validation_failed` before any
// rule of the sheet is looked at.

const rainDays = {
  schema: 'cropcover.term-sheet/1',
  name: 'Rain-day cover July-August',
  season: { from: '07-01', to: '08-31' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 10_000_000 },
  covers: [
    {
      peril: 'excess_rainfall',
      index: 'rain_days_gt_10mm',
      reading: 'rainfall_mm',
      limit: 10_000_000,
      base_rate: 0.12,
      exposure: 'season',
      phases: [
        {
          id: 'jul_aug',
          window: { from: '07-01', to: '08-31' },
          day: { is: { op: 'gt', value: 10 } },
          aggregate: 'sum',
          payout: { tick: { direction: 'above', trigger: 3, per_unit: 1_000_000 } },
          limit: 10_000_000,
        },
      ],
    },
  ],
};

/** Example C with one change to its one phase. */
const withPhase = (change: Record<string, unknown>) => ({
  ...rainDays,
  covers: [{ ...rainDays.covers[0], phases: [{ ...rainDays.covers[0]!.phases[0], ...change }] }],
});

const issuesOf = (value: unknown) =>
  TermSheet.safeParse(value).error?.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code })) ?? [];

describe('the shape of a term sheet', () => {
  it('takes a sheet as TERM-SHEETS.md writes it', () => {
    expect(issuesOf(rainDays)).toEqual([]);
  });

  it('refuses more than 6 decimals, read digit by digit', () => {
    expect(issuesOf(withPhase({ min_coverage: 0.9000001 }))).toEqual([
      { path: 'covers.0.phases.0.min_coverage', code: 'custom' },
    ]);
    expect(issuesOf({ ...rainDays, covers: [{ ...rainDays.covers[0], base_rate: 0.1234567 }] })).toEqual([
      { path: 'covers.0.base_rate', code: 'custom' },
    ]);
  });

  it('refuses an unknown field, an unknown enum value and a minor amount that is not whole', () => {
    expect(issuesOf({ ...rainDays, deductible: 5 })).toEqual([{ path: '', code: 'unrecognized_keys' }]);
    expect(issuesOf({ ...rainDays, covers: [{ ...rainDays.covers[0], peril: 'hail' }] })).toEqual([
      { path: 'covers.0.peril', code: 'invalid_value' },
    ]);
    expect(issuesOf(withPhase({ limit: 10_000_000.5 }))).toEqual([{ path: 'covers.0.phases.0.limit', code: 'custom' }]);
  });

  it('refuses a negative weight and a day that is not a day', () => {
    const blocks = { by: 'month', weights: [0.5, -0.5] };
    expect(issuesOf(withPhase({ blocks }))).toEqual([{ path: 'covers.0.phases.0.blocks.weights.1', code: 'custom' }]);
    expect(issuesOf(withPhase({ window: { from: '02-30', to: '08-31' } }))).toEqual([
      { path: 'covers.0.phases.0.window.from', code: 'custom' },
    ]);
  });

  it('counts decimals as the digits of the shortest decimal form do, fast or slow', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc
        .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 9 }))
        .map(([digits, places]) => digits / 10 ** places),
    );
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), (number, places) => {
        expect(hasAtMostDecimals(number, places)).toBe(decimalPlaces(number) <= places);
      }),
      { numRuns: 5000 },
    );
  });
});
