import type { ClimatologyNormal, Cover, FrozenClimatology, Phase, TermSheet } from '@cropcover/contracts';
import { TermSheet as TermSheetSchema } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error';
import { payoutCurve } from '../../products/payout-curve';
import { addDays } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { checkClimatologyBlocks } from './climatology-blocks';
import { evaluateCover } from './evaluate-cover';
import { validateTermSheet } from './validate';
import { seasonStartingIn } from './windows';

// TERM-SHEETS.md §5: `{percentile: p}` levels — a trigger at the location's own 20th percentile of the
// season's rain, from the climatology frozen at issue — so one product serves every cell.

const SEASON = { from: '06-01', to: '07-31' };
const TERM: CoverTerm = seasonStartingIn(SEASON, 2026);

const percentiles = (p5: number, p20: number): Record<string, number> =>
  Object.fromEntries(
    [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95].map((rank) => [
      `p${rank}`,
      rank <= 5 ? p5 : rank <= 20 ? p20 : p20 + rank,
    ]),
  );

const seasonal = (normal: Partial<ClimatologyNormal> = {}): FrozenClimatology => ({
  name: 'season-rain',
  version: 2,
  digest: 'sha256:5e',
  period: { window: SEASON },
  stat: 'sum',
  normals: [{ period: 1, starts: '06-01', n: 30, mean: 260, sd: 70, percentiles: percentiles(100, 200), ...normal }],
});

const phaseOf = (rest: Partial<Phase> = {}): Phase => ({
  id: 'season',
  window: SEASON,
  aggregate: 'sum',
  payout: {
    linear: {
      direction: 'below',
      trigger: { percentile: 20, climatology: { name: 'season-rain' } },
      exit: { percentile: 5 },
    },
  },
  limit: 1,
  settle: 'window_closed',
  ...rest,
});

const coverOf = (phase: Phase): Cover => ({
  peril: 'drought',
  index: 'season_rain_mm',
  reading: 'rainfall_mm',
  limit: 1,
  base_rate: 0.05,
  exposure: 'season',
  phases: [phase],
});

const sheetOf = (cover: Cover): TermSheet => ({
  schema: 'cropcover.term-sheet/2',
  name: 'Seasonal rain below the cell’s 20th percentile',
  season: SEASON,
  amounts: { unit: 'share' },
  covers: [cover],
});

/** `mm` on each day of the term. */
const everyDay = (term: CoverTerm, mm: number): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = term.start; date <= term.end; date = addDays(date, 1))
    readings.push({ date, value: mm, revision: 1 });
  return readings;
};

const severityPpm = (term: CoverTerm, mm: number, climatology: FrozenClimatology) =>
  evaluateCover(
    {
      cover: coverOf(phaseOf()),
      amounts: { unit: 'share' },
      term,
      readings: dayValuesIn(everyDay(term, mm), term.start, term.end),
      source: { climatology },
    },
    term.end,
  ).severityPpm;

const refusal = (phase: Phase, climatology: FrozenClimatology): string | undefined => {
  try {
    checkClimatologyBlocks(coverOf(phase), TERM, climatology, '0.05,36.75');
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
};

describe('percentile levels', () => {
  it("pay below the location's own percentiles: 61 days of 2.5 mm is 152.5, between p5 = 100 and p20 = 200", () => {
    expect(validateTermSheet(sheetOf(coverOf(phaseOf())))).toEqual([]);
    expect(refusal(phaseOf(), seasonal())).toBeUndefined();
    // (200 − 152.5) / (200 − 100) = 0.475; another cell's percentiles pay it differently.
    expect(severityPpm(TERM, 2.5, seasonal())).toBe(475_000);
    expect(severityPpm(TERM, 2.5, seasonal({ percentiles: percentiles(50, 150) }))).toBe(0);
    // A past season (a backtest, the burning cost) reads the same period's percentiles.
    expect(severityPpm(seasonStartingIn(SEASON, 2019), 1, seasonal())).toBe(1_000_000);
  });

  it('are refused at quote and issue where the location or the phase cannot give them', () => {
    expect(refusal(phaseOf(), seasonal({ percentiles: null }))).toBe('no_climatology');
    expect(refusal(phaseOf({ aggregate: 'max' }), seasonal())).toBe('climatology_period');
    expect(refusal(phaseOf({ window: { from: '06-01', to: '07-30' } }), seasonal())).toBe('climatology_period');
    const exitAboveTrigger = phaseOf({
      payout: { linear: { direction: 'below', trigger: { percentile: 20 }, exit: 250 } },
    });
    expect(refusal(exitAboveTrigger, seasonal())).toBe('climatology_period');
  });

  it('are version 2, of a rank the climatology keeps, and of a climatology the cover names', () => {
    const unnamed = phaseOf({ payout: { linear: { direction: 'below', trigger: { percentile: 20 }, exit: 0 } } });
    expect(validateTermSheet(sheetOf(coverOf(unnamed))).map(({ code }) => code)).toEqual(['climatology_period']);
    expect(
      TermSheetSchema.safeParse({ ...sheetOf(coverOf(phaseOf())), schema: 'cropcover.term-sheet/1' }).success,
    ).toBe(false);
    const rank7 = phaseOf({ payout: { tick: { direction: 'below', trigger: { percentile: 7 }, per_unit: 0.01 } } });
    expect(TermSheetSchema.safeParse(sheetOf(coverOf(rank7))).success).toBe(false);
  });

  it('have no payout curve without a location: 422 no_climatology, not a guess', () => {
    expect(() =>
      payoutCurve({ sheet: sheetOf(coverOf(phaseOf())), peril: 'drought', from: 0, to: 300, points: 4 }, '2026-01-10'),
    ).toThrow(expect.objectContaining({ code: 'no_climatology' }));
  });
});
