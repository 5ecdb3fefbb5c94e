import type {
  LocationBacktest,
  ObservedOutcome,
  Peril,
  PolicyProduct,
  ProductBacktestSummary,
  TermSheet,
} from '@cropcover/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';
import type { BacktestSourceLocation } from '../schema/command-api/product-backtest-request-tables';

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

export interface ProductBacktestLease {
  readonly leaseId: string;
  readonly now: Date;
  readonly leaseMs: number;
}

/** Claims the oldest request that has no run, or whose run's lease is over, with a lease of `leaseMs`. */
export const claimProductBacktest = async (
  db: Kysely<ReadModels>,
  { leaseId, now, leaseMs }: ProductBacktestLease,
): Promise<{ readonly request: ProductBacktestRequestRecord; readonly attempts: number } | undefined> => {
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await sql<{ job_id: string; attempts: number }>`
    with candidate as (
      select request.job_id from product_backtest_requests request
      left join product_backtest_runs run on run.job_id = request.job_id
      where run.job_id is null or (run.status = 'running' and run.leased_until < ${now})
      order by request.requested_at, request.job_id
      limit 1
      for update of request skip locked)
    insert into product_backtest_runs (job_id, status, lease_id, leased_until, attempts, started_at)
    select job_id, 'running', ${leaseId}, ${until}, 1, ${now} from candidate
    on conflict (job_id) do update set
      lease_id = excluded.lease_id, leased_until = excluded.leased_until,
      attempts = product_backtest_runs.attempts + 1, started_at = excluded.started_at
    where product_backtest_runs.status = 'running' and product_backtest_runs.leased_until < ${now}
    returning job_id, attempts`.execute(db);
  const claimed = rows[0];
  if (claimed === undefined) return undefined;
  const request = await db
    .selectFrom('product_backtest_requests')
    .selectAll()
    .where('job_id', '=', claimed.job_id)
    .executeTakeFirstOrThrow();
  return { request, attempts: claimed.attempts };
};

export const renewProductBacktestLease = async (
  db: Kysely<ReadModels>,
  jobId: string,
  { leaseId, now, leaseMs }: ProductBacktestLease,
): Promise<boolean> => {
  const result = await db
    .updateTable('product_backtest_runs')
    .set({ leased_until: new Date(now.getTime() + leaseMs) })
    .where('job_id', '=', jobId)
    .where('lease_id', '=', leaseId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

export interface ProductBacktestOutcome {
  readonly summary: ProductBacktestSummary;
  readonly locations: readonly LocationBacktest[];
}

const LOCATION_ROWS_PER_STATEMENT = 200;

/** Records how the run ended, if the lease is still this monitor's: a success writes every location's
 *  results in the same transaction. */
export const finishProductBacktest = async (
  db: Kysely<ReadModels>,
  jobId: string,
  leaseId: string,
  ending:
    | { readonly status: 'succeeded'; readonly result: ProductBacktestOutcome; readonly at: Date }
    | { readonly status: 'failed'; readonly error: { code: string; detail: string }; readonly at: Date },
): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    const ours = await trx
      .updateTable('product_backtest_runs')
      .set({
        status: ending.status,
        lease_id: null,
        leased_until: null,
        completed_at: ending.at,
        summary: ending.status === 'succeeded' ? JSON.stringify(ending.result.summary) : null,
        error: ending.status === 'failed' ? JSON.stringify(ending.error) : null,
      })
      .where('job_id', '=', jobId)
      .where('lease_id', '=', leaseId)
      .executeTakeFirst();
    if (ours.numUpdatedRows === 0n || ending.status === 'failed') return;
    const { locations } = ending.result;
    for (let at = 0; at < locations.length; at += LOCATION_ROWS_PER_STATEMENT) {
      await trx
        .insertInto('product_backtest_locations')
        .values(
          locations.slice(at, at + LOCATION_ROWS_PER_STATEMENT).map((location, offset) => ({
            job_id: jobId,
            position: at + offset,
            result: JSON.stringify(location),
          })),
        )
        .execute();
    }
  });
};
