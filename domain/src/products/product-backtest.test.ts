import type { FrozenClimatology, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { type Rational, rationalOfDecimal } from '../insurance/money/rational';
import { basisRisk, spearman } from './basis-risk';
import { backtestLocation } from './product-backtest';
import { planProductBacktest } from './product-backtest-plan';

const TODAY = '2026-11-28';

/** USD 10,000 basis; ten days of June; rain below 50 mm pays linearly to all of it at 0 mm. */
const SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'June dry spell',
  season: { from: '06-01', to: '06-10' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 1_000_000 },
  covers: [
    {
      peril: 'drought',
      index: 'rain_sum',
      reading: 'rainfall_mm',
      limit: 1_000_000,
      base_rate: 0.05,
      exposure: 'season',
      phases: [
        {
          id: 'june',
          window: { from: '06-01', to: '06-10' },
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: 50, exit: 0 } },
          limit: 1_000_000,
          settle: 'window_closed',
        },
      ],
    },
  ],
};

const days = (year: number, mm: number, count = 10): IndexObservation[] =>
  Array.from({ length: count }, (_, at) => ({ date: addDays(`${year}-06-01`, at), value: mm, revision: 1 }));

// 2020: 100 mm (nothing); 2021: 25 mm (half); 2022: 0 mm (all); 2023: five days read (incomplete).
const READINGS = [...days(2020, 10), ...days(2021, 2.5), ...days(2022, 0), ...days(2023, 0, 5)];

const decimals = (...figures: number[]): Rational[] => figures.map(rationalOfDecimal);

describe('Spearman and basis risk', () => {
  it('ranks ties by their average rank and rounds once (hand-computed: 5 / 9.5)', () => {
    // Payout ranks 1.5, 1.5, 4, 5, 3; loss ranks 1, 4, 2.5, 5, 2.5; Σdxdy = 5, Σdx² = Σdy² = 9.5.
    expect(spearman(decimals(0, 0, 0.2, 0.5, 0.1), decimals(0.1, 0.4, 0.3, 0.6, 0.3))).toBe(0.526316);
  });

  it('is −1 for an index paying the least on the worst losses, and null when a side is constant', () => {
    expect(spearman(decimals(0.3, 0.2, 0.1), decimals(0.1, 0.2, 0.3))).toBe(-1);
    expect(spearman(decimals(0, 0, 0), decimals(0.1, 0.2, 0.3))).toBeNull();
    expect(spearman(decimals(0.1), decimals(0.2))).toBeNull();
  });

  it('counts a loss above the threshold unpaid as a false negative, a payout without one as a false positive', () => {
    const payouts = decimals(0, 0, 0.2, 0.5, 0.1, 0.3);
    const losses = decimals(0.1, 0.4, 0.3, 0.6, 0.3, 0.25);
    const found = basisRisk(
      payouts.map((payout, at) => ({ payout, loss: losses[at]! })),
      rationalOfDecimal(0.25),
    );
    // Above 0.25: 0.4, 0.3, 0.6, 0.3 (0.25 itself is not above). Unpaid among them: 0.4. Paid without:
    // the last season (0.3 paid on a loss of 0.25).
    expect(found).toMatchObject({
      pairs: 6,
      losses_above_threshold: 4,
      payouts: 4,
      false_negatives: 1,
      false_positives: 1,
      false_negative_frequency: 0.166667,
      false_positive_frequency: 0.166667,
    });
  });
});

describe('a location backtested', () => {
  const spec = {
    sourceId: 'chirps',
    location: '-1.25,36.75',
    sheet: SHEET,
    perils: ['drought' as const],
    season: SHEET.season!,
    years: { from: 2020, to: 2024 },
    today: TODAY,
    readings: READINGS,
  };

  it('shows each season’s index, amount due and completeness, as the burning cost reads them', () => {
    const { view } = backtestLocation(spec);
    expect(view.seasons.map((season) => [season.season, season.counted, season.payout])).toEqual([
      [2020, true, 0],
      [2021, true, 5000],
      [2022, true, 10000],
      // Five days unread are filled away from a payout (TERM-SHEETS §1.3 step 5): nothing due.
      [2023, false, 0],
      [2024, false, 0],
    ]);
    expect(view.seasons[1]!.covers).toEqual([
      {
        peril: 'drought',
        status: 'complete',
        coverage: 1,
        phase: 'june',
        index: 25,
        amount_due_share: 0.5,
        amount_due: 5000,
      },
    ]);
    expect(view.seasons[3]!.covers[0]).toMatchObject({ status: 'incomplete_data', coverage: 0.5 });
    expect(view.seasons[4]!.covers[0]).toMatchObject({ status: 'no_data', coverage: 0, index: null });
  });

  it('averages the loss cost, counts paying seasons and finds the worst over the seasons counted', () => {
    expect(backtestLocation(spec).view.statistics).toEqual({
      seasons_counted: 3,
      average_loss_cost: 0.5,
      average_payout: 5000,
      payout_frequency: 0.666667,
      worst_season: { season: 2022, payout_share: 1, payout: 10000 },
    });
  });

  it('pairs the seasons counted with the losses observed', () => {
    const losses = new Map([
      [2020, rationalOfDecimal(0.1)],
      [2021, rationalOfDecimal(0.5)],
      [2022, rationalOfDecimal(0.4)],
      [2023, rationalOfDecimal(0.9)],
    ]);
    const { view, pairs } = backtestLocation({ ...spec, outcomes: { threshold: rationalOfDecimal(0.3), losses } });
    // 2023 is not counted. Payout ranks 1, 2, 3; loss ranks 1, 3, 2: ρ = 1 − 6·2 / (3·8) = 0.5.
    expect(pairs).toHaveLength(3);
    expect(view.basis_risk).toMatchObject({ pairs: 3, spearman: 0.5, false_negatives: 0, false_positives: 0 });
  });
});

describe('a location whose climatology cannot serve the sheet', () => {
  /** June's rain against the location's monthly normal. */
  const NORMALS_SHEET: TermSheet = {
    ...SHEET,
    schema: 'cropcover.term-sheet/2',
    season: { from: '06-01', to: '06-30' },
    covers: [
      {
        ...SHEET.covers[0]!,
        phases: [
          {
            ...SHEET.covers[0]!.phases[0]!,
            window: { from: '06-01', to: '06-30' },
            blocks: { by: 'month', vs_normal: { as: 'percent', climatology: { name: 'rain' } } },
            payout: { linear: { direction: 'below', trigger: 80, exit: 40 } },
          },
        ],
      },
    ],
  };
  const climatology = (period: FrozenClimatology['period']): FrozenClimatology => ({
    name: 'rain',
    version: 1,
    digest: 'sha256:0f',
    period,
    stat: 'sum',
    normals: [{ period: 6, starts: '06-01', n: 30, mean: 300, sd: null, percentiles: null }],
  });
  const backtestWith = (normals: FrozenClimatology) =>
    backtestLocation({
      sourceId: 'chirps',
      location: '-1.25,36.75',
      sheet: NORMALS_SHEET,
      perils: ['drought'],
      season: NORMALS_SHEET.season!,
      years: { from: 2020, to: 2022 },
      today: TODAY,
      readings: READINGS,
      dataSources: { drought: { climatology: normals } },
    }).view;

  it('is skipped with the reason quote would refuse it, reading no season', () => {
    expect(backtestWith(climatology('dekad'))).toMatchObject({
      status: 'skipped',
      skip_reason: { code: 'climatology_period' },
      seasons: [],
      statistics: null,
    });
    expect(backtestWith(climatology('month')).status).toBe('evaluated');
  });
});

describe('planning a product backtest', () => {
  const request = {
    sheet: SHEET,
    locations: [{ source_id: 'chirps', location: '-1.25,36.75' }],
    seasons: { from: 2020, to: 2026 },
  };

  it('refuses seasons not over yet, and a sheet without a season when none is given', () => {
    expect(() => planProductBacktest(request, undefined, '2026-06-10')).toThrow(
      expect.objectContaining({ code: 'seasons_not_past' }),
    );
    expect(planProductBacktest(request, undefined, '2026-06-11').years).toEqual({ from: 2020, to: 2026 });
    const { season: _, ...seasonless } = SHEET;
    expect(() => planProductBacktest({ ...request, sheet: seasonless }, undefined, TODAY)).toThrow(
      expect.objectContaining({ code: 'season_missing' }),
    );
    expect(
      planProductBacktest({ ...request, sheet: seasonless, season: { from: '06-01', to: '06-30' } }, undefined, TODAY)
        .season,
    ).toEqual({ from: '06-01', to: '06-30' });
  });

  it('refuses a peril the sheet has no cover of', () => {
    expect(() => planProductBacktest({ ...request, perils: ['flood'] }, undefined, TODAY)).toThrow(
      expect.objectContaining({ code: 'peril_not_in_product' }),
    );
  });
});
