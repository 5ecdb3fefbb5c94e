import type { PortfolioBacktestResult } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { asIfSeasons } from './as-if-seasons';

const statistics = (average: number) => ({
  seasons: 3,
  average_annual_loss: average,
  loss_cost: 0.01,
  standard_deviation: null,
  maximum: 0,
  return_periods: [],
});

const result: PortfolioBacktestResult = {
  currency: 'KES',
  policies: 2,
  total_sum_insured: 50_000,
  seasons: [1, 2, 3].map((years_back) => ({
    years_back,
    gross: years_back * 100,
    net: years_back * 60,
    paying_zones: 1,
    paying_policies: 1,
    exposure_incomplete: years_back === 3 ? 25_000 : 0,
    complete: years_back !== 3,
  })),
  gross: statistics(200),
  net: statistics(120),
  zones: [],
  inputs: { programme_revision: 4, readings: 270, digest: 'sha256:0' },
};

describe('the as-if seasons of a backtest', () => {
  it('runs oldest first, each season named by the year it starts in, with the averages the API computed', () => {
    expect(asIfSeasons(result, '2026-11-26')).toEqual({
      seasons: [
        { yearsBack: 3, year: 2023, gross: 300, net: 180, complete: false },
        { yearsBack: 2, year: 2024, gross: 200, net: 120, complete: true },
        { yearsBack: 1, year: 2025, gross: 100, net: 60, complete: true },
      ],
      averageGross: 200,
      averageNet: 120,
    });
  });
});
