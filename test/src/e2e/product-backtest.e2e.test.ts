import { JUNE_DRY_SHEET } from '@cropcover/domain/testing';
import { describe, expect, it } from 'vitest';
import type { ApiResponse, Caller } from '../support/api-client';
import { serviceUnderTest } from '../support/service-under-test';

// TERM-SHEETS.md §5.1 through `npm start`: a grid source's rainfall posted for two cells over three
// seasons, a product registered, its backtest asked for as a job with the losses the insurer observed,
// followed to its end; every figure is the test's own computation from the readings it posted. A bad
// request is refused and asks for no job; another organization does not see the job.

const suite = serviceUnderTest('e2e_product_backtest', { MONITOR_ENABLED: 'false' });
const { api } = suite;

const feed: Caller = { sub: 'chirps-feed', org: 'org-data', roles: ['data_provider'] };
const insurer: Caller = { sub: 'designer', org: 'org-ins', roles: ['insurer'] };
const rival: Caller = { sub: 'rival', org: 'org-rival', roles: ['insurer'] };

const WET = '-1.25,36.75';
const DRY = '-1.50,36.75';
/** Millimetres a day of June 1–10, by cell and year: 100, 25 and 100 mm at WET; 100, 0 and 40 at DRY. */
const RAIN: Record<string, Record<number, number>> = {
  [WET]: { 2019: 10, 2020: 2.5, 2021: 10 },
  [DRY]: { 2019: 10, 2020: 0, 2021: 4 },
};

const follow = async (location: string, caller: Caller): Promise<ApiResponse> => {
  for (;;) {
    const job = await api.get(location, caller);
    expect(job.status).toBe(200);
    if (job.body.status === 'succeeded' || job.body.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

describe('the product backtest', () => {
  it('backtests a registered product over cells and seasons, with its basis risk against observed losses', async () => {
    const source = await api.post('/insurance/index-sources', feed, {
      kind: 'grid',
      name: 'CHIRPS',
      index: 'rainfall_mm',
      resolution_deg: 0.25,
    });
    expect(source.status).toBe(201);
    const sourceId: string = source.body.source_id;
    const readings = Object.entries(RAIN).flatMap(([location, years]) =>
      Object.entries(years).flatMap(([year, mm]) =>
        Array.from({ length: 10 }, (_, day) => ({
          source_id: sourceId,
          location,
          date: `${year}-06-${String(day + 1).padStart(2, '0')}`,
          value: mm,
        })),
      ),
    );
    expect((await api.post('/insurance/index-readings', feed, { readings })).status).toBe(200);
    expect(
      (await api.post('/insurance/products', insurer, { product_id: 'june-dry', sheet: JUNE_DRY_SHEET })).status,
    ).toBe(201);

    const request = {
      product: { product_id: 'june-dry' },
      locations: [
        { source_id: sourceId, location: WET },
        // A point inside the DRY cell reads the cell.
        { source_id: sourceId, location: '-1.40,36.90' },
      ],
      seasons: { from: 2019, to: 2021 },
      outcomes: [
        { location: WET, season: 2019, loss_ratio: 0.1 },
        { location: WET, season: 2020, loss_ratio: 0.4 },
        { location: '-1.40,36.90', season: 2020, loss_ratio: 0.7 },
        { location: '-1.40,36.90', season: 2021, loss_ratio: 0.5 },
      ],
      loss_threshold: 0.3,
    };
    const refused = await api.post('/insurance/products/backtest', insurer, {
      ...request,
      seasons: { from: 2019, to: 2030 },
    });
    expect([refused.status, refused.body.code]).toEqual([422, 'seasons_not_past']);

    const asked = await api.post('/insurance/products/backtest', insurer, request);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ status: 'queued', product: { product_id: 'june-dry', version: 1 } });
    const location = asked.headers.get('location')!;
    expect(location).toBe(`/insurance/products/backtests/${asked.body.job_id}`);
    const job = await follow(location, insurer);
    expect(job.body.status).toBe('succeeded');
    const [wet, dry] = job.body.result.locations;
    // WET: 100 mm, 25 mm (half: $5,000), 100 mm. DRY: 100 mm, 0 mm (all: $10,000), 40 mm ($2,000).
    expect(wet.seasons.map((season: any) => [season.season, season.payout, season.covers[0].index])).toEqual([
      [2019, 0, 100],
      [2020, 5000, 25],
      [2021, 0, 100],
    ]);
    expect(wet.statistics).toEqual({
      seasons_counted: 3,
      average_loss_cost: 0.166667,
      average_payout: 1666.67,
      payout_frequency: 0.333333,
      worst_season: { season: 2020, payout_share: 0.5, payout: 5000 },
    });
    expect(dry).toMatchObject({ location: '-1.40,36.90', status: 'evaluated' });
    expect(dry.statistics).toMatchObject({ average_payout: 4000, payout_frequency: 0.666667 });
    // Pairs (payout share, loss): (0, .1), (.5, .4), (1, .7), (.2, .5). Ranks 1, 3, 4, 2 against 1, 2, 4, 3:
    // ρ = 1 − 6·(0 + 1 + 0 + 1) / (4·15) = 0.8. Above 0.3 every loss but the first, all paid.
    expect(job.body.result.summary).toEqual({
      locations: 2,
      locations_evaluated: 2,
      basis_risk: {
        pairs: 4,
        spearman: 0.8,
        losses_above_threshold: 3,
        payouts: 3,
        false_negatives: 0,
        false_positives: 0,
        false_negative_frequency: 0,
        false_positive_frequency: 0,
      },
    });

    const page = await api.get(`${location}?page=2&page_size=1`, insurer);
    expect(page.body.result.locations.map((each: any) => each.location)).toEqual(['-1.40,36.90']);
    expect((await api.get(location, rival)).status).toBe(404);
  });
});
