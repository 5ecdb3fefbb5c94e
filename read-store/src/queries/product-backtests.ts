import type {
  LocationBacktest,
  ObservedOutcome,
  Peril,
  PolicyProduct,
  ProductBacktestSummary,
  TermSheet,
} from '@cropcover/contracts';
import type { Kysely } from 'kysely';
import type { ReadModels } from '../read-models';
import type { BacktestSourceLocation } from '../schema/command-api/product-backtest-request-tables';
import { type LeasedJobTables, succeedLeasedRun } from './leased-jobs';

// Product backtest jobs (TERM-SHEETS.md §5.1): what the command API records when one is asked for, what a
// monitor claims, runs and finishes with each location's results, and what the query API shows.

export interface ProductBacktestRequestRecord {
  readonly job_id: string;
  readonly organization_id: string;
  readonly product: PolicyProduct | null;
  readonly sheet: TermSheet;
  readonly perils: readonly Peril[];
  readonly season: { readonly from: string; readonly to: string };
  readonly year_from: number;
  readonly year_to: number;
  readonly locations: readonly BacktestSourceLocation[];
  readonly basis: { readonly outcomes: readonly ObservedOutcome[]; readonly loss_threshold: number } | null;
  readonly requested_by: string;
  readonly requested_at: Date;
}

export interface ProductBacktestJobRecord extends ProductBacktestRequestRecord {
  /** null while queued. */
  readonly run: {
    readonly status: 'running' | 'succeeded' | 'failed';
    readonly completed_at: Date | null;
    readonly summary: ProductBacktestSummary | null;
    readonly error: unknown;
  } | null;
  /** The page of locations asked for, once succeeded. */
  readonly locations_page: readonly LocationBacktest[];
}

/** Records a request; one already recorded under its id (a keyed retry's first run) is left as it is. */
export const recordProductBacktestRequest = async (
  db: Kysely<ReadModels>,
  request: ProductBacktestRequestRecord,
): Promise<void> => {
  await db
    .insertInto('product_backtest_requests')
    .values({
      ...request,
      product: request.product === null ? null : JSON.stringify(request.product),
      sheet: JSON.stringify(request.sheet),
      perils: JSON.stringify(request.perils),
      season: JSON.stringify(request.season),
      locations: JSON.stringify(request.locations),
      basis: request.basis === null ? null : JSON.stringify(request.basis),
    })
    .onConflict((conflict) => conflict.column('job_id').doNothing())
    .execute();
};

/** The organization's job with a page of its locations' results; undefined when it has none by that id. */
export const loadProductBacktestJob = async (
  db: Kysely<ReadModels>,
  organizationId: string,
  jobId: string,
  page: { readonly page: number; readonly pageSize: number },
): Promise<ProductBacktestJobRecord | undefined> => {
  const row = await db
    .selectFrom('product_backtest_requests as request')
    .leftJoin('product_backtest_runs as run', 'run.job_id', 'request.job_id')
    .selectAll('request')
    .select(['run.status', 'run.completed_at', 'run.summary', 'run.error'])
    .where('request.job_id', '=', jobId)
    .where('request.organization_id', '=', organizationId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { status, completed_at, summary, error, ...request } = row;
  const locations =
    status === 'succeeded'
      ? await db
          .selectFrom('product_backtest_locations')
          .select('result')
          .where('job_id', '=', jobId)
          .orderBy('position')
          .limit(page.pageSize)
          .offset((page.page - 1) * page.pageSize)
          .execute()
      : [];
  return {
    ...request,
    run: status === null ? null : { status, completed_at, summary, error },
    locations_page: locations.map((location) => location.result),
  };
};

export const productBacktestJobs: LeasedJobTables = {
  requests: 'product_backtest_requests',
  runs: 'product_backtest_runs',
};

/** The request of a claimed job. */
export const loadProductBacktestRequest = (
  db: Kysely<ReadModels>,
  jobId: string,
): Promise<ProductBacktestRequestRecord> =>
  db.selectFrom('product_backtest_requests').selectAll().where('job_id', '=', jobId).executeTakeFirstOrThrow();

export interface ProductBacktestOutcome {
  readonly summary: ProductBacktestSummary;
  readonly locations: readonly LocationBacktest[];
}

const LOCATION_ROWS_PER_STATEMENT = 200;

/** Records the run's summary and every location's results in one transaction, if the lease is still this
 *  monitor's. */
export const finishProductBacktest = async (
  db: Kysely<ReadModels>,
  jobId: string,
  leaseId: string,
  { summary, locations }: ProductBacktestOutcome,
  at: Date,
): Promise<void> => {
  await succeedLeasedRun(db, 'product_backtest_runs', jobId, leaseId, at, async (trx) => {
    await trx
      .updateTable('product_backtest_runs')
      .set({ summary: JSON.stringify(summary) })
      .where('job_id', '=', jobId)
      .execute();
    for (let from = 0; from < locations.length; from += LOCATION_ROWS_PER_STATEMENT) {
      await trx
        .insertInto('product_backtest_locations')
        .values(
          locations.slice(from, from + LOCATION_ROWS_PER_STATEMENT).map((location, offset) => ({
            job_id: jobId,
            position: from + offset,
            result: JSON.stringify(location),
          })),
        )
        .execute();
    }
  });
};
