import { recordIndexReadings } from '@cropcover/application';
import type { TermSheet } from '@cropcover/contracts';
import { addDays } from '@cropcover/domain';
import {
  loadProductBacktestJob,
  migrateReadModels,
  type ProductBacktestRequestRecord,
  type ReadModels,
  recordProductBacktestRequest,
} from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool, settableClock } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeasedJobRunner } from '../leased-jobs/leased-job-runner';
import { startProductBacktestRunner } from './product-backtest-runner';

// A product backtest asked for is run by the monitor's runner against the read store's reading history
// and climatologies: each location read from its source, a location without normals reported, not failed.

const NOW = new Date('2026-11-28T12:00:00.000Z');
const WET = '-1.25,36.75';
const DRY = '-1.50,36.75';
const UNREAD = '-9.00,9.00';

const drought = (phase: TermSheet['covers'][number]['phases'][number]): TermSheet['covers'][number] => ({
  peril: 'drought',
  index: 'rain_sum',
  reading: 'rainfall_mm',
  limit: 1_000_000,
  base_rate: 0.05,
  exposure: 'season',
  phases: [phase],
});

/** USD 10,000 basis over ten days of June: below 50 mm pays linearly to all of it at 0 mm. */
const SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/1',
  name: 'June dry spell',
  season: { from: '06-01', to: '06-10' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 1_000_000 },
  covers: [
    drought({
      id: 'june',
      window: { from: '06-01', to: '06-10' },
      aggregate: 'sum',
      payout: { linear: { direction: 'below', trigger: 50, exit: 0 } },
      limit: 1_000_000,
      settle: 'window_closed',
    }),
  ],
};

/** June's rain as a percent of the location's June normal: below 80 % pays, all of it at 40 %. */
const NORMALS_SHEET: TermSheet = {
  schema: 'cropcover.term-sheet/2',
  name: 'June against its normal',
  season: { from: '06-01', to: '06-30' },
  amounts: { unit: 'minor', currency: 'USD', sum_insured_minor: 1_000_000 },
  covers: [
    drought({
      id: 'june',
      window: { from: '06-01', to: '06-30' },
      blocks: { by: 'month', vs_normal: { as: 'percent', climatology: { name: 'rain-months' } } },
      aggregate: 'sum',
      payout: { linear: { direction: 'below', trigger: 80, exit: 40 } },
      limit: 1_000_000,
      settle: 'window_closed',
    }),
  ],
};

describe('the product backtest runner', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let db: Kysely<ReadModels>;
  let runner: LeasedJobRunner;

  const rain = (location: string, year: number, mm: number) =>
    db.transaction().execute((trx) =>
      recordIndexReadings(
        trx,
        Array.from({ length: 30 }, (_, at) => ({
          sourceId: 'chirps',
          location,
          index: 'rainfall_mm' as const,
          date: addDays(`${year}-06-01`, at),
          value: mm,
          note: null,
        })),
        NOW,
        'feed',
      ),
    );

  beforeAll(async () => {
    database = await createTestDatabase('product_backtest_runner');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateReadModels(db);
    // WET: 10 mm a day (nothing due) in 2019 and 2021, 2.5 mm (half) in 2020. DRY: nothing in 2020 only.
    await rain(WET, 2019, 10);
    await rain(WET, 2020, 2.5);
    await rain(WET, 2021, 10);
    await rain(DRY, 2019, 10);
    await rain(DRY, 2020, 0);
    await rain(DRY, 2021, 10);
    // June normals of 300 mm at WET only (a climatology version as a monitor writes it).
    await db
      .insertInto('climatologies')
      .values({
        source_id: 'chirps',
        name: 'rain-months',
        version: 1,
        digest: 'sha256:test',
        organization_id: 'org-1',
        year_from: 1991,
        year_to: 2020,
        period: JSON.stringify('month'),
        stat: 'sum',
        min_years: 24,
        readings_as_of: NOW,
        computed_at: NOW,
        job_id: 'climatology-job',
      })
      .execute();
    await db
      .insertInto('climatology_normals')
      .values({
        source_id: 'chirps',
        name: 'rain-months',
        version: 1,
        location: WET,
        periods: JSON.stringify([{ period: 6, starts: '06-01', n: 30, mean: 300, sd: 50, percentiles: null }]),
      })
      .execute();
    runner = startProductBacktestRunner({
      db,
      clock: settableClock(NOW),
      logger: createLogger({ level: 'silent' }),
      pollMs: 20,
    });
  });
  afterAll(async () => {
    await runner?.stop();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const location = (at: string) => ({
    source_id: 'chirps',
    location: at,
    kind: 'grid' as const,
    index: 'rainfall_mm' as const,
    series: at,
  });

  const request = (jobId: string, sheet: TermSheet, more: Partial<ProductBacktestRequestRecord> = {}) => ({
    job_id: jobId,
    organization_id: 'org-1',
    product: null,
    sheet,
    perils: ['drought' as const],
    season: sheet.season!,
    year_from: 2019,
    year_to: 2021,
    locations: [location(WET), location(DRY), location(UNREAD)],
    basis: null,
    requested_by: 'designer',
    requested_at: NOW,
    ...more,
  });

  const finished = async (jobId: string, page = { page: 1, pageSize: 20 }) => {
    for (let tries = 0; tries < 300; tries += 1) {
      const job = await loadProductBacktestJob(db, 'org-1', jobId, page);
      if (job?.run?.status === 'succeeded' || job?.run?.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} did not finish`);
  };

  it('backtests each location over the seasons, with its statistics and the basis risk over all of them', async () => {
    await recordProductBacktestRequest(
      db,
      request('plain', SHEET, {
        basis: {
          loss_threshold: 0.3,
          outcomes: [
            { location: WET, season: 2019, loss_ratio: 0.1 },
            { location: WET, season: 2020, loss_ratio: 0.4 },
            { location: WET, season: 2021, loss_ratio: 0.2 },
            { location: DRY, season: 2019, loss_ratio: 0.5 },
            { location: DRY, season: 2020, loss_ratio: 0.6 },
          ],
        },
      }),
    );
    const job = await finished('plain');
    expect(job.run).toMatchObject({ status: 'succeeded', error: null });
    const [wet, dry, unread] = job.locations_page;
    expect(wet!.seasons.map((season) => season.payout)).toEqual([0, 5000, 0]);
    expect(wet!.statistics).toEqual({
      seasons_counted: 3,
      average_loss_cost: 0.166667,
      average_payout: 1666.67,
      payout_frequency: 0.333333,
      worst_season: { season: 2020, payout_share: 0.5, payout: 5000 },
    });
    expect(dry!.statistics).toMatchObject({ seasons_counted: 3, average_payout: 3333.33 });
    expect(unread!.seasons.every((season) => season.covers[0]!.status === 'no_data')).toBe(true);
    expect(unread!.statistics).toMatchObject({ seasons_counted: 0, average_loss_cost: null });
    // Five pairs: payouts 0, .5, 0, 0, 1 against losses .1, .4, .2, .5, .6: ranks 2, 4, 2, 2, 5 and 1, 3, 2,
    // 4, 5, so ρ = 6 / √80. Above 0.3 and unpaid: DRY 2019.
    expect(job.run!.summary).toEqual({
      locations: 3,
      locations_evaluated: 3,
      basis_risk: {
        pairs: 5,
        spearman: 0.67082,
        losses_above_threshold: 3,
        payouts: 2,
        false_negatives: 1,
        false_positives: 0,
        false_negative_frequency: 0.2,
        false_positive_frequency: 0,
      },
    });
    expect(wet!.basis_risk).toMatchObject({ pairs: 3, spearman: 0.866025 });
    const second = await finished('plain', { page: 2, pageSize: 1 });
    expect(second.locations_page.map((each) => each.location)).toEqual([DRY]);
  });

  it('reads normals from the location’s climatology, and reports a location without one', async () => {
    await recordProductBacktestRequest(db, request('normals', NORMALS_SHEET));
    const job = await finished('normals');
    const [wet, dry] = job.locations_page;
    // WET: 300 mm of a 300 mm normal pays nothing; 75 mm in 2020 is 25 %, below the exit: all of it.
    expect(wet!.seasons.map((season) => season.payout)).toEqual([0, 10000, 0]);
    expect(dry).toMatchObject({ status: 'skipped', skip_reason: { code: 'no_climatology' }, seasons: [] });
    expect(job.run!.summary).toEqual({ locations: 3, locations_evaluated: 1 });
  });
});
