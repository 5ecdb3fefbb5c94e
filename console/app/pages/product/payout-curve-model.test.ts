import type { Cover, PayoutCurve } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { curveChart, curveRange } from './payout-curve-model';

const phase = (id: string, payout: Cover['phases'][number]['payout'], limit = 1) => ({
  id,
  window: { from: '06-01', to: '06-30' },
  aggregate: 'sum' as const,
  payout,
  limit,
});

const coverOf = (phases: Cover['phases'], limit = 1): Cover => ({
  peril: 'drought',
  index: 'rainfall_mm',
  reading: 'rainfall_mm',
  limit,
  base_rate: 0.05,
  exposure: 'season',
  phases,
});

describe('the range of a payout curve', () => {
  it('runs from 0 to a quarter past the highest level', () => {
    expect(curveRange(coverOf([phase('a', { linear: { direction: 'below', trigger: 100, exit: 40 } })]))).toEqual({
      from: 0,
      to: 115,
    });
  });

  it('counts a per-window-day level over a year and a tick to where it reaches its limit', () => {
    const drought = coverOf([
      phase('term', { linear: { direction: 'below', trigger: { per_window_day: 2 }, exit: { per_window_day: 0.8 } } }),
    ]);
    expect(curveRange(drought)).toEqual({ from: 0, to: 841.8 });
    const rainDays = coverOf(
      [phase('jul', { tick: { direction: 'above', trigger: 3, per_unit: 1_000_000 } }, 10_000_000)],
      10_000_000,
    );
    expect(curveRange(rainDays)).toEqual({ from: 0, to: 15.5 });
  });

  it('goes below 0 when a level is negative, and spans at least 1', () => {
    const frost = coverOf([phase('a', { steps: [{ to: -2, pay: 1 }] })]);
    expect(curveRange(frost)).toEqual({ from: -2.5, to: -1.5 });
    expect(curveRange(coverOf([phase('a', { steps: [{ from: 0.35, pay: 1 }] })]))).toEqual({ from: 0, to: 1 });
  });
});

describe('the chart of a payout curve', () => {
  const cover = coverOf(
    [
      phase('early', { linear: { direction: 'below', trigger: 100, exit: 40 } }, 0.4),
      phase('late', { linear: { direction: 'below', trigger: 100, exit: 40 } }, 0.8),
    ],
    1,
  );
  const curve: PayoutCurve = {
    peril: 'drought',
    index: 'rainfall_mm',
    term_start: '2026-06-01',
    term_end: '2026-06-30',
    points: [
      {
        index_value: 70,
        phases: [
          { phase: 'early', severity: 0.5 },
          { phase: 'late', severity: 0.5 },
        ],
        cover: { severity: 0.6 },
      },
    ],
  };

  it('draws shares of the sum insured when the sheet has no money, a line per phase beside the cover', () => {
    const model = curveChart(cover, curve);
    expect(model.lines.map((line) => [line.id, line.points])).toEqual([
      ['cover', [{ x: 70, y: 0.6 }]],
      ['phase-1', [{ x: 70, y: 0.2 }]],
      ['phase-2', [{ x: 70, y: 0.4 }]],
    ]);
    expect(model.yLabel).toBe('share of the sum insured');
  });

  it('draws the amounts due when it has', () => {
    const money = {
      ...curve,
      currency: 'USD',
      sum_insured: 1000,
      points: [
        {
          index_value: 70,
          phases: [
            { phase: 'early', severity: 0.5, amount_due: 200 },
            { phase: 'late', severity: 0.5, amount_due: 400 },
          ],
          cover: { severity: 0.6, amount_due: 600, payout: 600 },
        },
      ],
    };
    const model = curveChart(cover, money);
    expect(model.lines.map((line) => line.points[0]!.y)).toEqual([600, 200, 400]);
    expect(model.yLabel).toBe('amount due (USD)');
  });
});
