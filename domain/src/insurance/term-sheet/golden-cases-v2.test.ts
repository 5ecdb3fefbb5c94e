import type { Cover, Peril, Phase, TermSheet } from '@cropcover/contracts';
import { TermSheet as TermSheetSchema } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { evaluateCover } from './evaluate-cover';
import { readPhaseTable } from './phase-table/read-phase-table';
import { writePhaseTable } from './phase-table/write-phase-table';
import { coverOf } from './product';
import { minorUnitsOfShare, sheetRounding } from './sheet-money';
import { validateTermSheet } from './validate';
import { seasonStartingIn } from './windows';

// TERM-SHEETS.md §5.2: the version 2 golden cases the engine can say without a second reading or a
// climatology (H1 concurrent phases, H3 multi-day events, H4 the date of the last frost), to the minor unit,
// and the rules version 2 adds to validation.

const USD = (sumInsured: number) => ({ unit: 'minor', currency: 'USD', sum_insured_minor: sumInsured }) as const;

const sheetOf = (
  season: { from: string; to: string },
  cover: Omit<Cover, 'base_rate' | 'exposure'>,
  sumInsured = 1_000_000,
): TermSheet => ({
  schema: 'cropcover.term-sheet/2',
  name: `golden v2 ${cover.peril}`,
  season,
  amounts: USD(sumInsured),
  covers: [{ ...cover, base_rate: 0.05, exposure: 'season' }],
});

/** Every day of the term at `otherwise`, and the given dates at their value. */
const daily = (term: CoverTerm, otherwise: number, values: Record<string, number> = {}): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = term.start; date <= term.end; date = addDays(date, 1)) {
    readings.push({ date, value: values[date] ?? otherwise, revision: 1 });
  }
  return readings;
};

const run = (from: string, days: number, value: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: days }, (_, at) => [addDays(from, at), value]));

/** Every sheet a case paid, for the phase table's round trip at the end (TERM-SHEETS.md §5.1). */
const paidSheets = new Set<TermSheet>();

const due = (sheet: TermSheet, peril: Peril, readings: readonly IndexObservation[], term: CoverTerm): number => {
  paidSheets.add(sheet);
  const cover = coverOf(sheet, peril)!;
  const outcome = evaluateCover(
    { cover, amounts: sheet.amounts, term, readings: dayValuesIn(readings, term.start, term.end) },
    term.end,
  );
  const sumInsured = sheet.amounts.unit === 'minor' ? sheet.amounts.sum_insured_minor : Number.NaN;
  return minorUnitsOfShare(outcome.share, sumInsured, sheetRounding(sheet));
};

const phase = (id: string, rest: Omit<Phase, 'id'>): Phase => ({ id, ...rest });

const H1 = sheetOf(
  { from: '06-01', to: '08-31' },
  {
    peril: 'heat',
    index: 'heat_days_and_degrees',
    reading: 'tmax_c',
    limit: 150_000,
    phase_mode: 'concurrent',
    phases: [
      phase('days', {
        window: { from: '06-01', to: '08-31' },
        day: { is: { op: 'gt', value: 35 } },
        aggregate: 'sum',
        payout: { tick: { direction: 'above', trigger: 2, per_unit: 10_000 } },
        limit: 100_000,
      }),
      phase('degrees', {
        window: { from: '06-01', to: '08-31' },
        day: { exceedance: { above: 35 } },
        aggregate: 'sum',
        payout: { tick: { direction: 'above', trigger: 15, per_unit: 10_000 } },
        limit: 100_000,
      }),
    ],
  },
);

const H3 = sheetOf(
  { from: '06-01', to: '09-30' },
  {
    peril: 'excess_rainfall',
    index: 'wet_events',
    reading: 'rainfall_mm',
    limit: 100_000,
    phases: [
      phase('season', {
        window: { from: '06-01', to: '09-30' },
        day: { is: { op: 'gte', value: 10 } },
        aggregate: { events: { min_days: 2 } },
        payout: { tick: { direction: 'above', trigger: 1, per_unit: 5_000 } },
        limit: 100_000,
      }),
    ],
  },
);

const H4 = sheetOf(
  { from: '04-01', to: '05-31' },
  {
    peril: 'frost',
    index: 'last_frost_day',
    reading: 'tmin_c',
    limit: 30_000,
    phases: [
      phase('spring', {
        window: { from: '04-01', to: '05-31' },
        day: { is: { op: 'lt', value: 0 } },
        aggregate: { last_day: true },
        payout: { tick: { direction: 'above', trigger: 20, per_unit: 1_000 } },
        limit: 30_000,
      }),
    ],
  },
);

describe('version 2 golden cases (TERM-SHEETS.md §5.2)', () => {
  it('H1: heat days and heat degrees as concurrent phases of one cover pay 70,000', () => {
    expect(validateTermSheet(H1)).toEqual([]);
    const term = seasonStartingIn(H1.season!, 2026);
    const readings = daily(term, 30, run('2026-07-10', 8, 37));
    // days: 8 − 2 = 6 × 10,000; degrees: 8 × 2 = 16 − 15 = 1 × 10,000.
    expect(due(H1, 'heat', readings, term)).toBe(70_000);
  });

  it('H3: wet runs of 2, 5 and 1 days are ⌊2/2⌋ + ⌊5/2⌋ + 0 = 3 events: 10,000', () => {
    expect(validateTermSheet(H3)).toEqual([]);
    const term = seasonStartingIn(H3.season!, 2026);
    const readings = daily(term, 0, {
      ...run('2026-06-10', 2, 12),
      ...run('2026-07-01', 5, 25),
      ...run('2026-08-15', 1, 40),
    });
    expect(due(H3, 'excess_rainfall', readings, term)).toBe(10_000);
  });

  it('H4: the last frost on 28 April is day 28: 8,000; no frost pays nothing', () => {
    expect(validateTermSheet(H4)).toEqual([]);
    const term = seasonStartingIn(H4.season!, 2026);
    const frosts = daily(term, 5, { '2026-04-05': -2, '2026-04-28': -1 });
    expect(due(H4, 'frost', frosts, term)).toBe(8_000);
    expect(due(H4, 'frost', daily(term, 5), term)).toBe(0);
  });
});

describe('version 2 indices', () => {
  const climateCorp = sheetOf(
    { from: '05-01', to: '05-31' },
    {
      peril: 'excess_rainfall',
      index: 'two_day_rain_events',
      reading: 'rainfall_mm',
      limit: 50_000,
      phases: [
        phase('may', {
          window: { from: '05-01', to: '05-31' },
          aggregate: { events: { days: 2, total_at_least: 12.7 } },
          payout: { tick: { direction: 'above', trigger: 0, per_unit: 1_000 } },
          limit: 50_000,
        }),
      ],
    },
  );

  it('two days totalling at least ½ inch are one event, no day counted twice', () => {
    const term = seasonStartingIn(climateCorp.season!, 2026);
    // 05-03 + 05-04 = 14 (event, scan resumes 05-05); 05-05 alone 7 + 05-06 0 = 7; 05-10..05-13 at 7 each:
    // 05-10 + 05-11 = 14 (event), 05-12 + 05-13 = 14 (event). Three events.
    const readings = daily(term, 0, {
      '2026-05-03': 7,
      '2026-05-04': 7,
      '2026-05-05': 7,
      ...run('2026-05-10', 4, 7),
    });
    expect(due(climateCorp, 'excess_rainfall', readings, term)).toBe(3_000);
  });

  it('the first qualifying day: a gap counts as the event, never making it later', () => {
    const blossom = sheetOf(
      { from: '03-01', to: '03-31' },
      {
        peril: 'dry_spell',
        index: 'blossom_rain_day',
        reading: 'rainfall_mm',
        limit: 20_000,
        phases: [
          phase('march', {
            window: { from: '03-01', to: '03-31' },
            day: { is: { op: 'gte', value: 5 } },
            aggregate: { first_day: true },
            payout: { tick: { direction: 'above', trigger: 10, per_unit: 1_000 } },
            limit: 20_000,
            min_coverage: 0.5,
          }),
        ],
      },
    );
    expect(validateTermSheet(blossom)).toEqual([]);
    const term = seasonStartingIn(blossom.season!, 2026);
    const rainOn15 = daily(term, 0, { '2026-03-15': 8 });
    expect(due(blossom, 'dry_spell', rainOn15, term)).toBe(5_000);
    // 03-05 unread: it may have rained, so the rain may have come on day 5 — nothing due.
    const gap = rainOn15.filter((reading) => reading.date !== '2026-03-05');
    expect(due(blossom, 'dry_spell', gap, term)).toBe(0);
  });

  it('PRF-style two-month intervals: January and February, 29 February included', () => {
    const prf = sheetOf(
      { from: '01-01', to: '04-30' },
      {
        peril: 'drought',
        index: 'interval_rainfall_mm',
        reading: 'rainfall_mm',
        limit: 100_000,
        phases: [
          phase('intervals', {
            window: { from: '01-01', to: '04-30' },
            blocks: { by: { months: 2 }, vs_normal: { as: 'percent', normal: [100, 100] }, round: 1 },
            aggregate: 'min',
            payout: { linear: { direction: 'below', trigger: 90, exit: 0 } },
            limit: 100_000,
            settle: 'window_closed',
          }),
        ],
      },
    );
    expect(validateTermSheet(prf)).toEqual([]);
    const term = seasonStartingIn(prf.season!, 2028);
    // Jan–Feb 2028 (60 days): 54.9 mm on 29 February, nothing else; Mar–Apr at 1 mm a day (61 mm).
    const readings = daily(term, 0, { '2028-02-29': 54.9, ...run('2028-03-01', 61, 1) });
    // min(54.9 %, 61 %) = 54.9 → (90 − 54.9) / 90 × 100,000 = 39,000.
    expect(due(prf, 'drought', readings, term)).toBe(39_000);
  });
});

describe('version 2 validation', () => {
  it('a version 1 sheet cannot use what only version 2 says', () => {
    const parsed = TermSheetSchema.safeParse({ ...H1, schema: 'cropcover.term-sheet/1' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['covers.0.phase_mode']);
  });

  it('every version 1 sheet with its schema line changed is a version 2 sheet', () => {
    const { phase_mode: _, ...v1Cover } = H1.covers[0]!;
    const v1 = { ...H1, schema: 'cropcover.term-sheet/1', covers: [{ ...v1Cover, phases: [v1Cover.phases[0]!] }] };
    expect(TermSheetSchema.safeParse(v1).success).toBe(true);
    expect(TermSheetSchema.safeParse({ ...v1, schema: 'cropcover.term-sheet/2' }).success).toBe(true);
  });

  it('sequential phases still may not overlap', () => {
    const sequential = { ...H1, covers: [{ ...H1.covers[0]!, phase_mode: 'sequential' as const }] };
    expect(validateTermSheet(sequential).map((found) => found.code)).toEqual(['phases_overlap']);
  });

  it('an event date pays above its trigger, and counts days of a predicate', () => {
    const cover = H4.covers[0]!;
    const below = {
      ...H4,
      covers: [
        {
          ...cover,
          phases: [
            {
              ...cover.phases[0]!,
              day: undefined,
              payout: { tick: { direction: 'below' as const, trigger: 20, per_unit: 1_000 } },
            },
          ],
        },
      ],
    };
    expect(validateTermSheet(below).map((found) => [found.code, found.path])).toEqual([
      ['aggregate_invalid', 'covers.0.phases.0.aggregate'],
      ['aggregate_invalid', 'covers.0.phases.0.payout'],
    ]);
  });

  it('two-month intervals start on a month’s first day and end on an interval’s last day', () => {
    const misaligned = sheetOf(
      { from: '01-01', to: '04-30' },
      {
        peril: 'drought',
        index: 'interval_rainfall_mm',
        reading: 'rainfall_mm',
        limit: 100_000,
        phases: [
          phase('intervals', {
            window: { from: '01-01', to: '03-31' },
            blocks: { by: { months: 2 } },
            aggregate: 'sum',
            payout: { linear: { direction: 'below', trigger: 90, exit: 0 } },
            limit: 100_000,
            settle: 'window_closed',
          }),
        ],
      },
    );
    expect(validateTermSheet(misaligned).map((found) => found.code)).toEqual(['blocks_misaligned']);
  });
});

describe('version 2 readings and perils', () => {
  it('a cover of livestock mortality on IBLI’s predicted mortality is version 2 only', () => {
    const cover = {
      ...H1.covers[0]!,
      peril: 'livestock_mortality' as const,
      reading: 'predicted_mortality_pct' as const,
      phase_mode: undefined,
      phases: [H1.covers[0]!.phases[0]!],
    };
    const v2 = { ...H1, covers: [cover] };
    expect(TermSheetSchema.safeParse(v2).success).toBe(true);
    const v1 = TermSheetSchema.safeParse({ ...v2, schema: 'cropcover.term-sheet/1' });
    expect(v1.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['covers.0.peril', 'covers.0.reading']);
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
