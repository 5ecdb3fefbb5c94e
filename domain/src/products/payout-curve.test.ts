import type { Cover, PayoutCurve, PayoutCurveRequest, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { addDays } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import { dayValuesIn } from '../insurance/index-data/day-values';
import { amountDueMinor, payoutFor } from '../insurance/money/payout';
import { exactSeverity, NO_SEVERITY } from '../insurance/money/severity';
import { DEFAULT_SHEET } from '../insurance/term-sheet/builtin';
import { evaluateCover } from '../insurance/term-sheet/evaluate-cover';
import { minorUnitsOfShare, sheetRounding } from '../insurance/term-sheet/sheet-money';
import { seasonStartingIn } from '../insurance/term-sheet/windows';
import { payoutCurve } from './payout-curve';

// TERM-SHEETS.md §5.1: the payout curve reads the one engine, so what it says index X pays is what an
// evaluation whose index came out at X pays, to the minor unit.

const TODAY = '2026-03-15';

const usd = (sumInsured: number) => ({ unit: 'minor', currency: 'USD', sum_insured_minor: sumInsured }) as const;

const sheetOf = (
  season: { from: string; to: string },
  cover: Omit<Cover, 'base_rate' | 'exposure'>,
  amounts: TermSheet['amounts'] = usd(cover.limit),
  rest: Partial<TermSheet> = {},
): TermSheet => ({
  schema: 'cropcover.term-sheet/2',
  name: `curve ${cover.peril}`,
  season,
  amounts,
  covers: [{ ...cover, base_rate: 0.05, exposure: 'season' }],
  ...rest,
});

/** G1: USD; drought; 07-01..07-10; sum; linear below 100 → 50; limit 5,000,000. */
const G1 = sheetOf(
  { from: '07-01', to: '07-10' },
  {
    peril: 'drought',
    index: 'rainfall_mm',
    reading: 'rainfall_mm',
    limit: 5_000_000,
    phases: [
      {
        id: 'dekad',
        window: { from: '07-01', to: '07-10' },
        aggregate: 'sum',
        payout: { linear: { direction: 'below', trigger: 100, exit: 50 } },
        limit: 5_000_000,
        settle: 'window_closed',
      },
    ],
  },
);

const curve = (sheet: TermSheet, rest: Omit<PayoutCurveRequest, 'sheet'>): PayoutCurve =>
  payoutCurve({ sheet, ...rest }, TODAY);

const coverAt = (found: PayoutCurve, indexValue: number) =>
  found.points.find((point) => point.index_value === indexValue)!.cover;

/** Minor units of a USD amount the curve shows in major units. */
const cents = (major: number | undefined): number => Math.round(major! * 100);

describe('the payout curve', () => {
  it('of a linear map pays what payoutFor pays at the trigger, the exit and between, to the minor unit', () => {
    const found = curve(G1, { peril: 'drought', from: 30, to: 110, points: 81 });
    expect(found.points.map((point) => point.index_value)).toEqual(Array.from({ length: 81 }, (_, at) => 30 + at));
    for (const point of found.points) {
      const x = point.index_value;
      const severity = x >= 100 ? NO_SEVERITY : exactSeverity(BigInt(100 - x), 50n);
      const expected = payoutFor(amountDueMinor(severity, 5_000_000), 5_000_000, 0, 0);
      expect(cents(point.cover.payout), `at ${x}`).toBe(expected);
      expect(cents(point.cover.amount_due), `at ${x}`).toBe(expected);
      expect(cents(point.phases[0]!.amount_due), `at ${x}`).toBe(expected);
    }
    expect(coverAt(found, 100)).toEqual({ severity: 0, amount_due: 0, payout: 0 });
    expect(coverAt(found, 90)).toEqual({ severity: 0.2, amount_due: 10_000, payout: 10_000 });
    expect(coverAt(found, 50)).toEqual({ severity: 1, amount_due: 50_000, payout: 50_000 });
    expect(coverAt(found, 30)).toEqual({ severity: 1, amount_due: 50_000, payout: 50_000 });
    expect(found).toMatchObject({ peril: 'drought', index: 'rainfall_mm', currency: 'USD', sum_insured: 50_000 });
  });

  it('says what an evaluation whose index came out at X pays', () => {
    const term = seasonStartingIn(G1.season!, 2026);
    const found = curve(G1, { peril: 'drought', from: 40, to: 110, points: 8 });
    for (const point of found.points) {
      const readings = Array.from({ length: 10 }, (_, at) => ({
        date: addDays(term.start, at),
        value: point.index_value / 10,
        revision: 1,
      }));
      const outcome = evaluateCover(
        { cover: G1.covers[0]!, amounts: G1.amounts, term, readings: dayValuesIn(readings, term.start, term.end) },
        term.end,
      );
      expect(cents(point.cover.amount_due)).toBe(minorUnitsOfShare(outcome.share, 5_000_000, sheetRounding(G1)));
    }
  });

  it('shows each index value it evaluated, rounded to 6 decimals', () => {
    const found = curve(G1, { peril: 'drought', from: 99, to: 100, points: 4 });
    expect(found.points.map((point) => point.index_value)).toEqual([99, 99.333333, 99.666667, 100]);
    // 100 − 99.333333 = 0.666667 of a span of 50: 5,000,000 × 0.666667 / 50 = 66,666.7 → 66,667 cents.
    expect(cents(found.points[1]!.cover.amount_due)).toBe(66_667);
    expect(found.points[1]!.cover.severity).toBe(0.013333);
  });

  it('of a step map pays the row the index lies in, [from, to)', () => {
    const cold = sheetOf(
      { from: '01-16', to: '02-29' },
      {
        peril: 'cold',
        index: 'longest_run_tmin_le_10c_days',
        reading: 'tmin_c',
        limit: 1_200_000,
        phases: [
          {
            id: 'jan_feb',
            window: { from: '01-16', to: '02-29' },
            day: { is: { op: 'lte', value: 10 } },
            aggregate: 'longest_run',
            payout: {
              steps: [
                { from: 5, to: 7, pay: 800_000 },
                { from: 7, pay: 1_200_000 },
              ],
            },
            limit: 1_200_000,
          },
        ],
      },
      { unit: 'minor', currency: 'INR', sum_insured_minor: 3_200_000 },
    );
    const found = curve(cold, { peril: 'cold', from: 0, to: 10, points: 21 });
    const paid = found.points.map((point) => [point.index_value, point.cover.amount_due, point.phases[0]!.severity]);
    expect(paid.filter(([value]) => value! < 5).every(([, due, severity]) => due === 0 && severity === 0)).toBe(true);
    expect(paid.filter(([value]) => value! >= 5 && value! < 7).map(([, due]) => due)).toEqual([8000, 8000, 8000, 8000]);
    expect(paid.find(([value]) => value === 6.5)).toEqual([6.5, 8000, 0.666667]);
    expect(paid.filter(([value]) => value! >= 7).every(([, due, severity]) => due === 12_000 && severity === 1)).toBe(
      true,
    );
  });

  it('of a tick map pays per unit past the trigger, to the limit', () => {
    const rainDays = sheetOf(
      { from: '07-01', to: '08-31' },
      {
        peril: 'excess_rainfall',
        index: 'rain_days_gt_10mm',
        reading: 'rainfall_mm',
        limit: 10_000_000,
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
    );
    const found = curve(rainDays, { peril: 'excess_rainfall', from: 0, to: 20, points: 41 });
    for (const point of found.points) {
      const expected = Math.min(10_000_000, Math.max(0, (point.index_value - 3) * 1_000_000));
      expect(cents(point.cover.amount_due), `at ${point.index_value}`).toBe(expected);
    }
    expect(coverAt(found, 8)).toEqual({ severity: 0.5, amount_due: 50_000, payout: 50_000 });
  });

  describe('of a concurrent two-phase cover (H1: heat days and heat degrees, cover limit 150,000)', () => {
    const H1 = sheetOf(
      { from: '06-01', to: '08-31' },
      {
        peril: 'heat',
        index: 'heat_days_and_degrees',
        reading: 'tmax_c',
        limit: 150_000,
        phase_mode: 'concurrent',
        phases: [
          {
            id: 'days',
            window: { from: '06-01', to: '08-31' },
            day: { is: { op: 'gt', value: 35 } },
            aggregate: 'sum',
            payout: { tick: { direction: 'above', trigger: 2, per_unit: 10_000 } },
            limit: 100_000,
          },
          {
            id: 'degrees',
            window: { from: '06-01', to: '08-31' },
            day: { exceedance: { above: 35 } },
            aggregate: 'sum',
            payout: { tick: { direction: 'above', trigger: 15, per_unit: 10_000 } },
            limit: 100_000,
          },
        ],
      },
      usd(1_000_000),
    );

    it('reads every phase at X and caps their sum at the cover limit', () => {
      const found = curve(H1, { peril: 'heat', from: 0, to: 30, points: 31 });
      const at = (value: number) => found.points.find((point) => point.index_value === value)!;
      expect(at(10).phases).toEqual([
        { phase: 'days', severity: 0.8, amount_due: 800 },
        { phase: 'degrees', severity: 0, amount_due: 0 },
      ]);
      expect(at(10).cover).toEqual({ severity: 0.533333, amount_due: 800, payout: 800 });
      // days 100,000 (capped at 12) + degrees 30,000 = 130,000.
      expect(at(18).cover).toEqual({ severity: 0.866667, amount_due: 1300, payout: 1300 });
      // 100,000 + 100,000 > 150,000.
      expect(at(25).cover).toEqual({ severity: 1, amount_due: 1500, payout: 1500 });
      expect(found.phase).toBeUndefined();
    });

    it('reads the phase asked for alone', () => {
      const found = curve(H1, { peril: 'heat', phase: 'degrees', from: 0, to: 30, points: 31 });
      const at25 = found.points.find((point) => point.index_value === 25)!;
      expect(at25.phases).toEqual([{ phase: 'degrees', severity: 1, amount_due: 1000 }]);
      expect(at25.cover).toEqual({ severity: 0.666667, amount_due: 1000, payout: 1000 });
      expect(found.phase).toBe('degrees');
    });
  });

  it('pays within the sheet limit: the amount due is the cover’s, the payout what the policy may still be paid', () => {
    const capped = { ...G1, limit: 3_000_000 };
    expect(coverAt(curve(capped, { peril: 'drought', from: 40, to: 100, points: 7 }), 50)).toEqual({
      severity: 1,
      amount_due: 50_000,
      payout: 30_000,
    });
  });

  it('rounds money as the sheet says', () => {
    const down = { ...G1, rounding: 'down' as const };
    const found = curve(down, { peril: 'drought', from: 99, to: 100, points: 4 });
    expect(cents(found.points[1]!.cover.amount_due)).toBe(66_666);
  });

  it('of a sheet in shares of the sum insured says severity only', () => {
    const term: CoverTerm = { start: '2026-01-01', end: '2026-12-31' };
    const found = payoutCurve(
      {
        sheet: DEFAULT_SHEET,
        peril: 'drought',
        from: 200,
        to: 800,
        points: 7,
        term_start: term.start,
        term_end: term.end,
      },
      TODAY,
    );
    // 365 days: trigger 2.0 × 365 = 730, exit 0.8 × 365 = 292.
    expect(found.points.map((point) => [point.index_value, point.cover])).toEqual([
      [200, { severity: 1 }],
      [300, { severity: 0.981735 }],
      [400, { severity: 0.753425 }],
      [500, { severity: 0.525114 }],
      [600, { severity: 0.296804 }],
      [700, { severity: 0.068493 }],
      [800, { severity: 0 }],
    ]);
    expect(found).toMatchObject({ term_start: term.start, term_end: term.end });
    expect(found.currency).toBeUndefined();
  });

  it('resolves windows on the term a quote without one prices when none is given', () => {
    // Without a season: a year from today; 365 days from 2026-03-15.
    const found = payoutCurve({ sheet: DEFAULT_SHEET, peril: 'drought', from: 292, to: 730, points: 2 }, TODAY);
    expect(found).toMatchObject({ term_start: '2026-03-15', term_end: '2027-03-14' });
    expect(found.points.map((point) => point.cover.severity)).toEqual([1, 0]);
    expect(curve(G1, { peril: 'drought', from: 0, to: 1, points: 2 })).toMatchObject({
      term_start: '2026-07-01',
      term_end: '2026-07-10',
    });
  });

  it('refuses a sheet that breaks a rule, a term off its season and a term not holding its windows', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof DomainError ? error.code : error;
      }
      return undefined;
    };
    const reversed = {
      ...G1,
      covers: [
        {
          ...G1.covers[0]!,
          phases: [{ ...G1.covers[0]!.phases[0]!, payout: { linear: { direction: 'below', trigger: 50, exit: 100 } } }],
        },
      ],
    } as TermSheet;
    expect(refusal(() => curve(reversed, { peril: 'drought', from: 0, to: 1, points: 2 }))).toBe('invalid_term_sheet');
    const offSeason = { peril: 'drought', from: 0, to: 1, points: 2, term_start: '2026-07-02', term_end: '2026-07-11' };
    expect(refusal(() => curve(G1, offSeason as PayoutCurveRequest))).toBe('term_not_product_season');
    const seasonless = { ...G1, season: undefined };
    const short = { peril: 'drought', from: 0, to: 1, points: 2, term_start: '2026-07-01', term_end: '2026-07-05' };
    expect(refusal(() => curve(seasonless, short as PayoutCurveRequest))).toBe('window_outside_term');
  });
});
