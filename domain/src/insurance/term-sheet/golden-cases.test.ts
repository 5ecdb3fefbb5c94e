import type { Cover, Peril, Phase, SheetAmounts, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { RAIN_DAYS_SHEET, RWBCIS_ORANGE_SHEET, SCIC_CORN_SHEET } from '../../testing/example-sheets';
import { addDays } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { DEFAULT_SHEET } from './builtin';
import { evaluateCover } from './evaluate-cover';
import { readPhaseTable } from './phase-table/read-phase-table';
import { writePhaseTable } from './phase-table/write-phase-table';
import { coverOf } from './product';
import { minorUnitsOfShare, sheetRounding } from './sheet-money';
import { seasonStartingIn } from './windows';

// TERM-SHEETS.md §3: every golden case, its sheet written out, reproduced to the minor unit. Daily
// readings; a window day not listed holds 0 mm (or the stated value). One phase per cover, cover limit =
// phase limit, policy sum insured = the basis of a `minor` sheet; `below` phases over sums, means and
// blocks settle when their window closes. G21 and G22 (payments over time) are policy tests:
// policies/term-sheet-policies.test.ts.

const USD_BASIS = (sumInsured: number): SheetAmounts => ({
  unit: 'minor',
  currency: 'USD',
  sum_insured_minor: sumInsured,
});

/** A sheet of one cover of one phase over `window` (the whole season unless given). */
const oneCover = (
  amounts: SheetAmounts,
  season: { from: string; to: string; window?: { from: string; to: string } },
  cover: Omit<Cover, 'phases' | 'base_rate' | 'exposure'>,
  phase: Omit<Phase, 'id' | 'window' | 'limit'>,
  rounding?: TermSheet['rounding'],
): TermSheet => ({
  schema: 'cropcover.term-sheet/1',
  name: `golden ${cover.peril}`,
  season: { from: season.from, to: season.to },
  amounts,
  ...(rounding === undefined ? {} : { rounding }),
  covers: [
    {
      ...cover,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        { id: 'window', window: season.window ?? { from: season.from, to: season.to }, limit: cover.limit, ...phase },
      ],
    },
  ],
});

/** Every day of the term at `otherwise`, and the given dates at their value. */
const daily = (term: CoverTerm, otherwise: number, values: Record<string, number> = {}): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = term.start; date <= term.end; date = addDays(date, 1)) {
    readings.push({ date, value: values[date] ?? otherwise, revision: 1 });
  }
  return readings;
};

/** The same value on each of `days` days from `from`. */
const run = (from: string, days: number, value: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: days }, (_, at) => [addDays(from, at), value]));

/** Every sheet a case paid, for the phase table's round trip at the end (TERM-SHEETS.md §5.1). */
const paidSheets = new Set<TermSheet>();

/** `amount_due_minor` of the sheet's cover of `peril` as of `asOf` (default: the term's end). */
const due = (
  sheet: TermSheet,
  peril: Peril,
  readings: readonly IndexObservation[],
  term: CoverTerm,
  options: { asOf?: string; sumInsuredMinor?: number } = {},
): number => {
  paidSheets.add(sheet);
  const cover = coverOf(sheet, peril)!;
  const outcome = evaluateCover(
    { cover, amounts: sheet.amounts, term, readings: dayValuesIn(readings, term.start, term.end) },
    options.asOf ?? term.end,
  );
  const sumInsured =
    options.sumInsuredMinor ?? (sheet.amounts.unit === 'minor' ? sheet.amounts.sum_insured_minor : Number.NaN);
  return minorUnitsOfShare(outcome.share, sumInsured, sheetRounding(sheet));
};

const seasonOf = (sheet: TermSheet, year: number): CoverTerm => seasonStartingIn(sheet.season!, year);

describe('golden cases G1–G3: linear deficit, textbook strike 100 mm, exit 50 mm (RN1)', () => {
  const sheet = oneCover(
    USD_BASIS(5_000_000),
    { from: '07-01', to: '07-10' },
    { peril: 'drought', index: 'cumulative_rainfall_mm', reading: 'rainfall_mm', limit: 5_000_000 },
    { aggregate: 'sum', payout: { linear: { direction: 'below', trigger: 100, exit: 50 } }, settle: 'window_closed' },
  );
  const term = seasonOf(sheet, 2026);

  it('G1: 9 mm a day, I = 90: 5,000,000 × 10/50', () => {
    expect(due(sheet, 'drought', daily(term, 9), term)).toBe(1_000_000);
  });
  it('G2: 4 mm a day, I = 40: past the exit, the whole limit', () => {
    expect(due(sheet, 'drought', daily(term, 4), term)).toBe(5_000_000);
  });
  it('G3: 12 mm a day, I = 120: not at the trigger', () => {
    expect(due(sheet, 'drought', daily(term, 12), term)).toBe(0);
  });
});

describe('golden cases G4–G7: ticks', () => {
  it('G4: excess rain, seasonal sum, tick above 20 mm, 1,000,000 a mm (RN2)', () => {
    const sheet = oneCover(
      USD_BASIS(20_000_000),
      { from: '07-01', to: '08-31' },
      { peril: 'excess_rainfall', index: 'seasonal_rainfall_mm', reading: 'rainfall_mm', limit: 20_000_000 },
      { aggregate: 'sum', payout: { tick: { direction: 'above', trigger: 20, per_unit: 1_000_000 } } },
    );
    const term = seasonOf(sheet, 2026);
    expect(due(sheet, 'excess_rainfall', daily(term, 0, run('2026-07-25', 3, 13)), term)).toBe(19_000_000);
  });

  it('G5: example C, 12 mm on 8 days and 10.0 mm on 2 (not above 10): (8 − 3) × 1,000,000 (RN3)', () => {
    const term = seasonOf(RAIN_DAYS_SHEET, 2026);
    const readings = daily(term, 0, { ...run('2026-07-03', 8, 12), ...run('2026-08-03', 2, 10.0) });
    expect(due(RAIN_DAYS_SHEET, 'excess_rainfall', readings, term)).toBe(5_000_000);
  });

  it('G6: frost, degrees below 0 °C summed, tick above 15, 1,000,000 a degree (RN4)', () => {
    const sheet = oneCover(
      USD_BASIS(30_000_000),
      { from: '04-01', to: '04-30' },
      { peril: 'frost', index: 'frost_degrees_c', reading: 'tmin_c', limit: 30_000_000 },
      {
        day: { exceedance: { below: 0 } },
        aggregate: 'sum',
        payout: { tick: { direction: 'above', trigger: 15, per_unit: 1_000_000 } },
      },
    );
    const term = seasonOf(sheet, 2026);
    const frost = { '2026-04-10': -10, '2026-04-11': -12.5, '2026-04-12': -8, '2026-04-13': -6, '2026-04-14': -4 };
    expect(due(sheet, 'frost', daily(term, 3, frost), term)).toBe(25_500_000);
  });

  it('G7: water balance, mean 1.9 mm against a 5 mm trigger, 1,000,000 a mm (RN4)', () => {
    const sheet = oneCover(
      USD_BASIS(10_000_000),
      { from: '06-01', to: '06-10' },
      { peril: 'drought', index: 'mean_water_balance_mm', reading: 'water_balance_mm', limit: 10_000_000 },
      {
        aggregate: 'mean',
        payout: { tick: { direction: 'below', trigger: 5, per_unit: 1_000_000 } },
        settle: 'window_closed',
      },
    );
    const term = seasonOf(sheet, 2026);
    expect(due(sheet, 'drought', daily(term, 1.9), term)).toBe(3_100_000);
  });
});

describe('golden cases G8–G11: weighted monthly percent of normal (SCIC, RN5–RN6)', () => {
  const saskatchewan = (blocks: Partial<NonNullable<Phase['blocks']>>): TermSheet =>
    oneCover(
      { unit: 'share' },
      { from: '04-01', to: '07-31' },
      { peril: 'drought', index: 'weighted_pct_of_normal', reading: 'rainfall_mm', limit: 1 },
      {
        blocks: {
          by: 'month',
          vs_normal: { as: 'percent', normal: [25, 45, 70, 65] },
          cap: 125,
          weights: [0.3, 0.3, 0.3, 0.1],
          round: 1,
          ...blocks,
        },
        aggregate: 'sum',
        payout: { linear: { direction: 'below', trigger: 80, exit: 40 } },
        settle: 'window_closed',
      },
    );
  const monthly = { '2026-04-15': 40, '2026-05-15': 32, '2026-06-15': 33, '2026-07-15': 16 };
  const term = { start: '2026-04-01', end: '2026-07-31' };
  const pays = (sheet: TermSheet) => due(sheet, 'drought', daily(term, 0, monthly), term, { sumInsuredMinor: 990_000 });

  it('G8: 37.5 + 21.3 + 14.1 + 2.5 = 75.4; 990,000 × 4.6/40', () => {
    expect(pays(saskatchewan({}))).toBe(113_850);
  });
  it('G9: without the declared 0.1-point rounding, I = 41189/546', () => {
    const { round: _, ...unrounded } = saskatchewan({}).covers[0]!.phases[0]!.blocks!;
    const sheet = saskatchewan({});
    const exact: TermSheet = {
      ...sheet,
      covers: [{ ...sheet.covers[0]!, phases: [{ ...sheet.covers[0]!.phases[0]!, blocks: unrounded }] }],
    };
    expect(pays(exact)).toBe(112_916);
  });
  it('G10: capped at 150%, 45.0 + 21.3 + 14.1 + 2.5 = 82.9 > 80', () => {
    expect(pays(saskatchewan({ cap: 150 }))).toBe(0);
  });
  it('G11: example D, May–Aug 60/60/10/25: 76.3 falls in [76, 78) = 7%', () => {
    const season = seasonOf(SCIC_CORN_SHEET, 2026);
    const rain = daily(season, 0, { '2026-05-15': 60, '2026-06-15': 60, '2026-07-15': 10, '2026-08-15': 25 });
    expect(due(SCIC_CORN_SHEET, 'drought', rain, season, { sumInsuredMinor: 5_000_000 })).toBe(350_000);
    expect(due(SCIC_CORN_SHEET, 'drought', rain, season, { sumInsuredMinor: 4_000_000 })).toBe(280_000);
  });
});

describe('golden cases G12–G13: area yield against trigger and exit × APH (AYII, RN7)', () => {
  const ayii = (rounding?: TermSheet['rounding']) =>
    oneCover(
      { unit: 'share' },
      { from: '10-01', to: '10-31', window: { from: '10-31', to: '10-31' } },
      { peril: 'yield_shortfall', index: 'area_yield_t_ha', reading: 'area_yield_t_ha', limit: 0.9 },
      {
        aggregate: 'sum',
        payout: { linear: { direction: 'below', trigger: 1.5, exit: 0.2 } },
        settle: 'window_closed',
      },
      rounding,
    );
  const term = seasonOf(ayii(), 2026);

  it('G12: 1.1 t/ha: 180,000 × 0.4/1.3, half-up; the source’s 553 is `down` on 2,000 whole units', () => {
    expect(due(ayii(), 'yield_shortfall', daily(term, 1.1), term, { sumInsuredMinor: 200_000 })).toBe(55_385);
    expect(due(ayii('down'), 'yield_shortfall', daily(term, 1.1), term, { sumInsuredMinor: 2_000 })).toBe(553);
  });
  it('G13: 2.0 t/ha, at the APH: not at the trigger', () => {
    expect(due(ayii(), 'yield_shortfall', daily(term, 2.0), term, { sumInsuredMinor: 200_000 })).toBe(0);
  });
});

describe('golden cases G14–G17: example A, RWBCIS orange (RN8)', () => {
  const season = seasonOf(RWBCIS_ORANGE_SHEET, 2025);

  it('is the season 2025-12-01 … 2026-02-28', () => {
    expect(season).toEqual({ start: '2025-12-01', end: '2026-02-28' });
  });
  it('G14: the best 7 days hold 31 mm ≥ 30', () => {
    const rain = daily(season, 0, { ...run('2025-12-10', 5, 5), ...run('2025-12-15', 2, 3) });
    expect(due(RWBCIS_ORANGE_SHEET, 'unseasonal_rain', rain, season)).toBe(2_000_000);
  });
  it('G15: the best 7 days hold 29 mm', () => {
    const rain = daily(season, 0, { ...run('2025-12-10', 5, 5), ...run('2025-12-15', 2, 2) });
    expect(due(RWBCIS_ORANGE_SHEET, 'unseasonal_rain', rain, season)).toBe(0);
  });
  it('G16: a run of 6 cold nights falls in [5, 7)', () => {
    expect(due(RWBCIS_ORANGE_SHEET, 'cold', daily(season, 12, run('2026-01-20', 6, 8)), season)).toBe(800_000);
  });
  it('G17: a run of 7 is the highest tier, not a sum of tiers', () => {
    expect(due(RWBCIS_ORANGE_SHEET, 'cold', daily(season, 12, run('2026-01-20', 7, 8)), season)).toBe(1_200_000);
  });
});

describe('golden case G18: a deductible of 4 events (Climate Corp, RN9)', () => {
  const sheet = oneCover(
    USD_BASIS(100_000),
    { from: '08-01', to: '08-31' },
    { peril: 'excess_rainfall', index: 'rain_events_ge_6_35mm', reading: 'rainfall_mm', limit: 100_000 },
    {
      day: { is: { op: 'gte', value: 6.35 } },
      aggregate: 'sum',
      payout: { tick: { direction: 'above', trigger: 4, per_unit: 10_000 } },
    },
  );
  const term = seasonOf(sheet, 2026);
  const events = (count: number) => daily(term, 0, run('2026-08-01', count, 8));

  it('pays (9 − 4) × 10,000 for 9 events, nothing for 4, the limit for 20', () => {
    expect(due(sheet, 'excess_rainfall', events(9), term)).toBe(50_000);
    expect(due(sheet, 'excess_rainfall', events(4), term)).toBe(0);
    expect(due(sheet, 'excess_rainfall', events(20), term)).toBe(100_000);
  });
});

describe('golden cases G19–G20: an external factor and a tick of cents (RN10)', () => {
  it('G19: a loss factor of 0.35 on 40,000', () => {
    const sheet = oneCover(
      { unit: 'share' },
      { from: '10-01', to: '10-31', window: { from: '10-31', to: '10-31' } },
      { peril: 'yield_shortfall', index: 'loss_factor', reading: 'loss_factor', limit: 1 },
      { aggregate: 'sum', payout: { linear: { direction: 'above', trigger: 0, exit: 1 } } },
    );
    const term = seasonOf(sheet, 2026);
    expect(due(sheet, 'yield_shortfall', daily(term, 0.35), term, { sumInsuredMinor: 40_000 })).toBe(14_000);
  });

  it('G20: 100.29 mm against a 100 mm strike at 100 a mm is 29 exactly (Arbol’s float code: 28)', () => {
    const sheet = oneCover(
      USD_BASIS(1_000),
      { from: '07-01', to: '07-31' },
      { peril: 'excess_rainfall', index: 'monthly_rainfall_mm', reading: 'rainfall_mm', limit: 1_000 },
      { aggregate: 'sum', payout: { tick: { direction: 'above', trigger: 100, per_unit: 100 } } },
    );
    const term = seasonOf(sheet, 2026);
    expect(due(sheet, 'excess_rainfall', daily(term, 0, { '2026-07-05': 100, '2026-07-06': 0.29 }), term)).toBe(29);
  });
});

describe('golden cases G23–G24: today’s catalog as the default product', () => {
  it('G23: flood, 40 mm on 5 consecutive days of a KES 250,000 cover: 1/3 → 83,333.33', () => {
    const term = { start: '2026-04-01', end: '2026-06-29' };
    const rain = daily(term, 0, run('2026-04-10', 5, 40));
    expect(due(DEFAULT_SHEET, 'flood', rain, term, { sumInsuredMinor: 25_000_000, asOf: '2026-04-20' })).toBe(
      8_333_333,
    );
  });

  it('G24: drought over 366 days of 1.5 mm: (732 − 549)/(732 − 292.8) = 5/12 on 12-31, nothing on 06-30', () => {
    const term = { start: '2028-01-01', end: '2028-12-31' };
    const rain = daily(term, 1.5);
    expect(due(DEFAULT_SHEET, 'drought', rain, term, { sumInsuredMinor: 10_000_000 })).toBe(4_166_667);
    expect(due(DEFAULT_SHEET, 'drought', rain, term, { sumInsuredMinor: 10_000_000, asOf: '2028-06-30' })).toBe(0);
  });
});

// Last, when every case above has paid its sheet.
describe('the golden sheets as phase tables (TERM-SHEETS.md §5.1)', () => {
  it('each reads back from its phase table as the same sheet', () => {
    expect(paidSheets.size).toBeGreaterThan(0);
    for (const sheet of paidSheets)
      expect(readPhaseTable(writePhaseTable(sheet))).toEqual({ sheet: JSON.parse(JSON.stringify(sheet)) });
  });
});
