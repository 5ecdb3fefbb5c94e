import type { ClimatologyNormal, Cover, FrozenClimatology, Phase, TermSheet } from '@cropcover/contracts';
import { TermSheet as TermSheetSchema } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error';
import { periodsOfYear } from '../../index-sources/climatologies/climatology-periods';
import { dateOfDay, dayNumber } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { IndexObservation } from '../index-data/index-observation';
import { divideRounded, MILLIONTHS, millionthsOf } from '../money/decimal';
import { evaluateCover, seasonShare } from './evaluate-cover';
import { checkSourcePeriods, sourcePeriodsIn } from './source-periods';
import { validateTermSheet } from './validate';
import { seasonStartingIn } from './windows';

// TERM-SHEETS.md §5, non-daily data: a phase over 8-day NDVI composites or dekadal rainfall reads the
// periods that start in its window, counts them for completeness, and `blocks.by: "source_period"` makes
// each its own block; quote and issue refuse a cover that does not fit its source's cadence.

const SEASON = { from: '01-01', to: '02-25' };
const TERM: CoverTerm = seasonStartingIn(SEASON, 2024);

const phaseOf = (rest: Partial<Phase>): Phase => ({
  id: 'season',
  window: { from: SEASON.from, to: SEASON.to },
  aggregate: 'mean',
  payout: { linear: { direction: 'below', trigger: 0.4, exit: 0.2 } },
  limit: 1,
  settle: 'window_closed',
  ...rest,
});

const coverOf = (phase: Phase, more: Partial<Cover> = {}): Cover => ({
  peril: 'forage_deficit',
  index: 'seasonal_ndvi',
  reading: 'ndvi',
  limit: 1,
  base_rate: 0.05,
  exposure: 'season',
  phases: [phase],
  ...more,
});

const sheetOf = (cover: Cover): TermSheet => ({
  schema: 'cropcover.term-sheet/2',
  name: 'IBLI-like forage',
  season: SEASON,
  amounts: { unit: 'share' },
  covers: [cover],
});

/** One reading per 8-day composite starting in the term, dated by its first day (MODIS: from 1 January). */
const composites = (values: readonly (number | undefined)[]): IndexObservation[] =>
  values.flatMap((value, at) =>
    value === undefined ? [] : [{ date: dateOfDay(dayNumber('2024-01-01') + 8 * at), value, revision: 1 }],
  );

const evaluate = (cover: Cover, readings: IndexObservation[], climatology?: FrozenClimatology) =>
  evaluateCover(
    {
      cover,
      amounts: { unit: 'share' },
      term: TERM,
      readings: dayValuesIn(readings, TERM.start, TERM.end),
      source: { cadence: '8_day', climatology },
    },
    TERM.end,
  );

describe('a phase over 8-day composites', () => {
  it('belongs the periods that start in its window: 01-01 to 02-25 holds seven composites', () => {
    const periods = sourcePeriodsIn('8_day', { start: TERM.start, end: TERM.end, ...days(TERM) });
    expect(periods?.map(({ first }) => dateOfDay(first))).toEqual([
      '2024-01-01',
      '2024-01-09',
      '2024-01-17',
      '2024-01-25',
      '2024-02-02',
      '2024-02-10',
      '2024-02-18',
    ]);
    expect(sourcePeriodsIn('daily', { start: TERM.start, end: TERM.end, ...days(TERM) })).toBeUndefined();
  });

  it('takes the mean of the composites, and counts composites for completeness', () => {
    const values = [0.3, 0.32, 0.28, 0.3, 0.25, 0.33, 0.31];
    const outcome = evaluate(coverOf(phaseOf({})), composites(values));
    const [phase] = outcome.phases;
    // Σ = 2.09 over 7 composites: 0.298571…, linear from 0.4 to 0.2 → (0.4 − 2.09/7) / 0.2 of the limit.
    expect(phase?.coverage).toEqual({ daysWithReading: 7, daysInWindow: 7 });
    expect(phase?.index).toEqual({ numerator: 2_090_000n, denominator: 7n });
    expect(phase?.status).toBe('closed');
    expect(outcome.severityPpm).toBe(Number(divideRounded((2_800_000n - 2_090_000n) * MILLIONTHS, 1_400_000n)));

    // One composite missing of seven is 86 % of the window: under the default 90 %, incomplete.
    const gap = evaluate(coverOf(phaseOf({})), composites([0.3, 0.32, undefined, 0.3, 0.25, 0.33, 0.31]));
    expect(gap.phases[0]?.coverage).toEqual({ daysWithReading: 6, daysInWindow: 7 });
    expect(gap.skipReason).toBe('incomplete_data');
    // With min_coverage 0.85 it counts, the gap filled with NDVI's bound away from the payout (1).
    const counted = evaluate(
      coverOf(phaseOf({ min_coverage: 0.85 })),
      composites([0.3, 0.32, undefined, 0.3, 0.25, 0.33, 0.31]),
    );
    expect(counted.phases[0]?.index).toEqual({ numerator: 2_810_000n, denominator: 7n });
  });

  it('z-scores each composite against its own period of an 8-day climatology with source_period blocks', () => {
    const means = [0.4, 0.42, 0.38, 0.4, 0.36, 0.44, 0.41];
    const climatology = eightDayClimatology(means, 0.05);
    const phase = phaseOf({
      blocks: { by: 'source_period', stat: 'mean', vs_normal: { as: 'z', climatology: { name: 'ndvi-8day' } } },
      aggregate: 'mean',
      payout: { linear: { direction: 'below', trigger: -1, exit: -3 } },
    });
    const values = [0.3, 0.32, 0.28, 0.3, 0.26, 0.34, 0.31];
    const outcome = evaluate(coverOf(phase), composites(values), climatology);
    // Each z = (v − mean) / 0.05; their mean over 7 blocks, exactly.
    const zSum = values.reduce((sum, value, at) => sum + (millionthsOf(value) - millionthsOf(means[at]!)), 0n);
    const expected = { numerator: zSum * MILLIONTHS, denominator: 50_000n * 7n };
    const index = outcome.phases[0]!.index!;
    expect(index.numerator * expected.denominator).toBe(expected.numerator * index.denominator);
    // z̄ = −2: halfway from −1 to −3.
    expect(outcome.severityPpm).toBe(500_000);
    checkSourcePeriods(coverOf(phase), TERM, '8_day', '-1.25,36.75');
  });

  it('prices a past season on its composites: a season counts when its periods are read', () => {
    const cover = coverOf(phaseOf({}));
    const spec = (readings: IndexObservation[]) => ({
      cover,
      amounts: { unit: 'share' } as const,
      term: TERM,
      readings: dayValuesIn(readings, TERM.start, TERM.end),
      source: { cadence: '8_day' } as const,
    });
    // A mean of 0.3 is halfway from 0.4 to 0.2: half the sum insured.
    const share = seasonShare(spec(composites([0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3])))!;
    expect(share.numerator * 2n).toBe(share.denominator);
    expect(seasonShare(spec(composites([0.3, 0.3, 0.3])))).toBeUndefined();
  });
});

describe('a phase over dekadal rainfall with dekad blocks', () => {
  const dekadTerm: CoverTerm = { start: '2024-03-01', end: '2024-03-31' };
  const cover: Cover = {
    peril: 'drought',
    index: 'dekadal_rain_mm',
    reading: 'rainfall_mm',
    limit: 1,
    base_rate: 0.05,
    exposure: 'season',
    phases: [
      {
        id: 'march',
        window: { from: '03-01', to: '03-31' },
        blocks: { by: 'dekad', cap: 60 },
        aggregate: 'sum',
        payout: { linear: { direction: 'below', trigger: 100, exit: 20 } },
        limit: 1,
        settle: 'window_closed',
        min_coverage: 0.6,
      },
    ],
  };
  const evaluateDekads = (values: Record<string, number>) =>
    evaluateCover(
      {
        cover,
        amounts: { unit: 'share' },
        term: dekadTerm,
        readings: dayValuesIn(
          Object.entries(values).map(([date, value]) => ({ date, value, revision: 1 })),
          dekadTerm.start,
          dekadTerm.end,
        ),
        source: { cadence: 'dekad' },
      },
      dekadTerm.end,
    );

  it('makes each dekad one block, its cap on the dekad’s total', () => {
    const outcome = evaluateDekads({ '2024-03-01': 12.5, '2024-03-11': 80, '2024-03-21': 7 });
    expect(outcome.phases[0]?.coverage).toEqual({ daysWithReading: 3, daysInWindow: 3 });
    expect(outcome.phases[0]?.index).toEqual({ numerator: 79_500_000n, denominator: 1n });
  });

  it('fills a missing dekad with as much rain as eleven days may hold, so a gap never pays', () => {
    const outcome = evaluateDekads({ '2024-03-01': 0, '2024-03-21': 0 });
    // The gap is capped at 60 like any dekad: 0 + 60 + 0 = 60 mm, not 0.
    expect(outcome.phases[0]?.index).toEqual({ numerator: 60_000_000n, denominator: 1n });
  });
});

describe('quote and issue refuse a cover that does not fit its source (period_mismatch)', () => {
  const refusal = (cover: Cover, cadence: Parameters<typeof checkSourcePeriods>[2]) => {
    try {
      checkSourcePeriods(cover, TERM, cadence, '0.05,36.75');
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
    return undefined;
  };

  it('source_period blocks over a daily source', () => {
    const cover = coverOf(phaseOf({ blocks: { by: 'source_period' } }));
    expect(refusal(cover, 'daily')).toBe('period_mismatch');
    expect(refusal(cover, undefined)).toBe('period_mismatch');
    expect(refusal(cover, '8_day')).toBeUndefined();
  });

  it('months, a sowing, or a block no period starts in over a non-daily source', () => {
    expect(refusal(coverOf(phaseOf({ blocks: { by: { months: 1 } } })), 'dekad')).toBe('period_mismatch');
    expect(refusal(coverOf(phaseOf({ blocks: { by: 'dekad' } })), '16_day')).toBe('period_mismatch');
    expect(refusal(coverOf(phaseOf({ blocks: { by: 'month' } })), 'dekad')).toBeUndefined();
    const sowing = { from: '01-01', to: '01-31', rolling_days: 3, at_least: 20 } as const;
    expect(refusal(coverOf(phaseOf({}), { sowing }), 'dekad')).toBe('period_mismatch');
    expect(refusal(coverOf(phaseOf({}), { sowing }), 'daily')).toBeUndefined();
  });
});

describe('validation of source_period blocks', () => {
  it('is version 2, and takes its figures from a climatology, not a list', () => {
    const listed = sheetOf(coverOf(phaseOf({ blocks: { by: 'source_period', weights: [1, 1] } })));
    expect(validateTermSheet(listed).map(({ code }) => code)).toContain('blocks_arity');
    const v1 = { ...sheetOf(coverOf(phaseOf({ blocks: { by: 'source_period' } }))), schema: 'cropcover.term-sheet/1' };
    expect(TermSheetSchema.safeParse(v1).success).toBe(false);
    expect(validateTermSheet(sheetOf(coverOf(phaseOf({ blocks: { by: 'source_period' } }))))).toEqual([]);
  });
});

function days(term: CoverTerm) {
  return { startDay: dayNumber(term.start), endDay: dayNumber(term.end) };
}

function eightDayClimatology(means: readonly number[], sd: number): FrozenClimatology {
  const normals: ClimatologyNormal[] = periodsOfYear('8_day', 2001).map(({ period, first }) => ({
    period,
    starts: dateOfDay(first).slice(5),
    n: 30,
    mean: means[period - 1] ?? 0.4,
    sd,
    percentiles: null,
  }));
  return { name: 'ndvi-8day', version: 1, digest: 'sha256:8d', period: '8_day', stat: 'mean', normals };
}
