import type { LocationBacktest, LocationSeason, ProductBacktestJob } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { money } from '../../format';
import { amountDueChart, amountText, basisRiskText, selectedLocation, shareText } from './backtest-results';

const season = (year: number, share: number, counted = true): LocationSeason => ({
  season: year,
  season_start: `${year}-06-01`,
  season_end: `${year}-06-10`,
  counted,
  payout_share: share,
  payout: share * 10_000,
  covers: [],
});

// The product backtest e2e's WET cell: 100 mm, 25 mm (half the sum insured) and 100 mm, seasons given newest
// first here to show the chart orders them.
const wet: LocationBacktest = {
  source_id: 'chirps',
  location: '-1.25,36.75',
  status: 'evaluated',
  seasons: [season(2021, 0), season(2020, 0.5), season(2019, 0, false)],
  statistics: {
    seasons_counted: 2,
    average_loss_cost: 0.25,
    average_payout: 2500,
    payout_frequency: 0.5,
    worst_season: { season: 2020, payout_share: 0.5, payout: 5000 },
  },
};
const skipped: LocationBacktest = {
  source_id: 'chirps',
  location: 'nowhere',
  status: 'skipped',
  skip_reason: { code: 'no_climatology', detail: 'no normals' },
  seasons: [],
  statistics: null,
};

const job: ProductBacktestJob = {
  job_id: 'job-1',
  status: 'succeeded',
  requested_at: '2026-11-28T10:00:00.000Z',
  completed_at: '2026-11-28T10:00:01.000Z',
  product: { product_id: 'june-dry', version: 1, digest: 'sha256:0' },
  perils: ['drought'],
  season: { from: '06-01', to: '06-10' },
  seasons: { from: 2019, to: 2021 },
  currency: 'USD',
  error: null,
  result: {
    summary: { locations: 2, locations_evaluated: 1 },
    page: 1,
    page_size: 100,
    locations: [skipped, wet],
  },
};
const { currency: _, ...shareJob } = job;

describe('the figures of a product backtest', () => {
  it('writes shares as percent at two decimals, and a figure the API left null as a dash', () => {
    expect([shareText(0.166667), shareText(1), shareText(null), shareText(undefined)]).toEqual([
      '16.67 %',
      '100.00 %',
      '—',
      '—',
    ]);
  });

  it('writes an amount in the sheet’s money, or as a share of the sum insured for a share sheet', () => {
    expect(amountText(job, 0.5, 5000)).toBe(money(5000, 'USD'));
    expect(amountText(shareJob, 0.5, undefined)).toBe('50.00 % of the sum insured');
  });

  it('says the basis risk with its counts of pairs, and why ρ is missing when it is', () => {
    const risk = {
      pairs: 4,
      spearman: 0.8,
      losses_above_threshold: 3,
      payouts: 3,
      false_negatives: 1,
      false_positives: 0,
      false_negative_frequency: 0.25,
      false_positive_frequency: 0,
    };
    expect(basisRiskText(risk)).toBe(
      'Spearman ρ 0.800; unpaid losses 1 of 4 (25.00 %); payouts without a loss 0 of 4 (0.00 %)',
    );
    expect(basisRiskText({ ...risk, spearman: null })).toContain('Spearman ρ — (too few or constant pairs)');
    expect(basisRiskText({ ...risk, pairs: 0 })).toBe('no season counted has an observed loss');
  });
});

describe('the location shown', () => {
  it('is the one the address names, else the first evaluated, else the first', () => {
    const locations = job.result!.locations;
    expect(selectedLocation(locations, 'chirps', 'nowhere')).toBe(skipped);
    expect(selectedLocation(locations, null, null)).toBe(wet);
    expect(selectedLocation(locations, 'chirps', 'elsewhere')).toBe(wet);
    expect(selectedLocation([skipped], null, null)).toBe(skipped);
    expect(selectedLocation([], null, null)).toBeUndefined();
  });
});

describe('the chart of amount due per season', () => {
  it('draws each season oldest first in the sheet’s money, the one not counted as incomplete, and the average', () => {
    const chart = amountDueChart(job, wet);
    expect(chart.bars).toEqual([
      { key: '2019', label: '2019', values: [0], complete: false },
      { key: '2020', label: '2020', values: [5000], complete: true },
      { key: '2021', label: '2021', values: [0], complete: true },
    ]);
    expect(chart.unit).toBe('USD');
    expect(chart.averages).toEqual([{ kind: 'due', label: `average ${money(2500, 'USD')}`, value: 2500 }]);
  });

  it('draws a share sheet in percent of the sum insured', () => {
    const chart = amountDueChart(shareJob, wet);
    expect(chart.bars.map((bar) => bar.values[0])).toEqual([0, 50, 0]);
    expect(chart.averages).toEqual([{ kind: 'due', label: 'average 25.00 % of the sum insured', value: 25 }]);
    expect(chart.unit).toBe('% of sum insured');
  });

  it('draws no average where no season counted', () => {
    const chart = amountDueChart(job, { ...wet, seasons: [season(2019, 0, false)], statistics: null });
    expect(chart.averages).toEqual([]);
    expect(chart.description).toContain('no season counted');
  });
});
