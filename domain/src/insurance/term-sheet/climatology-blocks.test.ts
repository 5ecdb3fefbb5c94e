import type { ClimatologyNormal, FrozenClimatology, Phase, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { checkClimatologyBlocks } from './climatology-blocks';
import { evaluateCover } from './evaluate-cover';
import { coverOf } from './product';
import { minorUnitsOfShare, sheetRounding } from './sheet-money';
import { validateTermSheet } from './validate';
import { seasonStartingIn } from './windows';

// TERM-SHEETS.md §5 `vs_normal: {as, climatology}` and INDEX-DATA §3: one product for every cell, each
// policy reading its blocks against the normals of its own location, frozen at issue.

const normalOf = (period: number, starts: string, mean: number, sd: number | null = null): ClimatologyNormal => ({
  period,
  starts,
  n: 30,
  mean,
  sd,
  percentiles: null,
});

const frozen = (
  period: FrozenClimatology['period'],
  normals: ClimatologyNormal[],
  stat: 'sum' | 'mean' = 'sum',
): FrozenClimatology => ({ name: 'prf-grid', version: 3, digest: 'sha256:0f', period, stat, normals });

const JAN_FEB = { window: { from: '01-01', to: '02-29' } } as const;

/** H5 (TERM-SHEETS.md §5.2) without `per_exposure_unit`: 100 acres × 1,836 folded into the sum insured. */
const H5: TermSheet = {
  schema: 'cropcover.term-sheet/2',
  name: 'PRF grid 27663, Jan–Feb interval',
  season: { from: '01-01', to: '02-29' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 183_600 },
  covers: [
    {
      peril: 'drought',
      index: 'interval_rainfall_pct_of_normal',
      reading: 'rainfall_mm',
      limit: 183_600,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'jan-feb',
          window: { from: '01-01', to: '02-29' },
          blocks: { by: { months: 2 }, vs_normal: { as: 'percent', climatology: { name: 'prf-grid' } }, round: 1 },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 90, exit: 0 } },
          limit: 183_600,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

const onDays = (term: CoverTerm, values: Record<string, number>, otherwise = 0): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = term.start; date <= term.end; date = addDays(date, 1)) {
    readings.push({ date, value: values[date] ?? otherwise, revision: 1 });
  }
  return readings;
};

const due = (sheet: TermSheet, term: CoverTerm, readings: IndexObservation[], climatology?: FrozenClimatology) => {
  const cover = coverOf(sheet, 'drought')!;
  const outcome = evaluateCover(
    {
      cover,
      amounts: sheet.amounts,
      term,
      readings: dayValuesIn(readings, term.start, term.end),
      source: { climatology },
    },
    term.end,
  );
  const sumInsured = sheet.amounts.unit === 'minor' ? sheet.amounts.sum_insured_minor : Number.NaN;
  return { minor: minorUnitsOfShare(outcome.share, sumInsured, sheetRounding(sheet)), index: outcome.phases[0]?.index };
};

describe('blocks read against a climatology', () => {
  const term2028 = seasonStartingIn(H5.season!, 2028);

  it('validates as version 2 only', () => {
    expect(validateTermSheet(H5)).toEqual([]);
  });

  it('H5: 54.9 % of the location’s normal, leap year 2028 → (90 − 54.9)/90 × 183,600 = 71,604', () => {
    const climatology = frozen(JAN_FEB, [normalOf(1, '01-01', 100)]);
    // 54.9 mm over the 60 days of January–February 2028, 29 February included.
    const readings = onDays(term2028, { '2028-02-29': 24.9, '2028-01-15': 30 });
    expect(() => checkClimatologyBlocks(coverOf(H5, 'drought')!, term2028, climatology, 'cell-27663')).not.toThrow();
    expect(due(H5, term2028, readings, climatology).minor).toBe(71_604);
  });

  it('serves every cell from one product: another location’s normal gives another index', () => {
    const wetter = frozen(JAN_FEB, [normalOf(1, '01-01', 122)]);
    const readings = onDays(term2028, { '2028-02-29': 24.9, '2028-01-15': 30 });
    // 54.9 / 122 = 45 % → (90 − 45)/90 × 183,600 = 91,800.
    expect(due(H5, term2028, readings, wetter).minor).toBe(91_800);
  });

  it('reads a common year’s January–February (59 days) as the same period', () => {
    const term2027 = seasonStartingIn(H5.season!, 2027);
    const readings = onDays(term2027, { '2027-02-28': 24.9, '2027-01-15': 30 });
    expect(due(H5, term2027, readings, frozen(JAN_FEB, [normalOf(1, '01-01', 100)])).minor).toBe(71_604);
  });

  it('z-scores dekads against each dekad’s own normal and deviation', () => {
    const phase: Phase = {
      id: 'ndvi',
      window: { from: '06-01', to: '06-30' },
      blocks: { by: 'dekad', stat: 'mean', vs_normal: { as: 'z', climatology: { name: 'ndvi-dekads' } } },
      aggregate: 'mean',
      payout: { linear: { direction: 'below', trigger: -1, exit: -2 } },
      limit: 1,
      settle: 'window_closed',
    };
    const sheet: TermSheet = {
      ...H5,
      season: { from: '06-01', to: '06-30' },
      amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 100_000 },
      covers: [
        { ...H5.covers[0]!, reading: 'ndvi', index: 'ndvi_z', limit: 100_000, phases: [{ ...phase, limit: 100_000 }] },
      ],
    };
    expect(validateTermSheet(sheet)).toEqual([]);
    // Dekads 16–18 (June): normals 0.6, 0.62, 0.64, deviations 0.05.
    const dekads = frozen(
      'dekad',
      [normalOf(16, '06-01', 0.6, 0.05), normalOf(17, '06-11', 0.62, 0.05), normalOf(18, '06-21', 0.64, 0.05)],
      'mean',
    );
    const term = seasonStartingIn(sheet.season!, 2025);
    // Every day at 0.52: z = (0.52 − 0.6)/0.05 = −1.6, −2, −2.4 → mean −2 → exit: the whole limit.
    const readings = onDays(term, {}, 0.52);
    expect(due(sheet, term, readings, dekads)).toEqual({
      minor: 100_000,
      index: expect.objectContaining({ numerator: -2_000_000n, denominator: 1n }),
    });
  });

  describe('what quote and issue check on the term', () => {
    const cover = coverOf(H5, 'drought')!;
    const refusal = (climatology: FrozenClimatology) => {
      try {
        checkClimatologyBlocks(cover, term2028, climatology, 'cell-27663');
        return undefined;
      } catch (error) {
        return (error as { code: string }).code;
      }
    };

    it('a block that is no period of the climatology: climatology_period', () => {
      expect(refusal(frozen('month', [normalOf(1, '01-01', 50), normalOf(2, '02-01', 50)]))).toBe('climatology_period');
    });

    it('a climatology of means for blocks of sums: climatology_period', () => {
      expect(refusal(frozen(JAN_FEB, [normalOf(1, '01-01', 100)], 'mean'))).toBe('climatology_period');
    });

    it('no normal for the block’s period at the location: no_climatology', () => {
      expect(refusal(frozen(JAN_FEB, []))).toBe('no_climatology');
    });

    it('a percent of a normal of 0: normal_not_positive', () => {
      expect(refusal(frozen(JAN_FEB, [normalOf(1, '01-01', 0)]))).toBe('normal_not_positive');
    });
  });

  it('a cover reads one climatology', () => {
    const second = {
      ...H5.covers[0]!.phases[0]!,
      id: 'again',
      blocks: { by: { months: 2 }, vs_normal: { as: 'percent', climatology: { name: 'other' } } },
    } as Phase;
    const sheet = {
      ...H5,
      covers: [{ ...H5.covers[0]!, phase_mode: 'concurrent' as const, phases: [H5.covers[0]!.phases[0]!, second] }],
    };
    expect(validateTermSheet(sheet).map((found) => found.code)).toContain('climatology_period');
  });
});
