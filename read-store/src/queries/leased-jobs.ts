import { type Kysely, sql, type Transaction } from 'kysely';
import type { ReadModels } from '../read-models';

// Every kind of job asked for through the API (as-if backtests, climatologies, product backtests) is two
// tables: the requests the command API records, and the runs a monitor's runner writes, one per job. A job
// is queued until it has a run; a run holds a lease its runner renews, so a job whose runner died (its
// lease over) is claimed again by another, and only the lease's holder records how the run ended.

/** The runner holding a lease, the instant it acts at, and how long a lease lasts from then. */
export interface JobLease {
  readonly leaseId: string;
  readonly now: Date;
  readonly leaseMs: number;
}

export type LeasedRunTable = 'portfolio_backtest_runs' | 'climatology_runs' | 'product_backtest_runs';

/** A kind of job: its requests (`job_id`, `requested_at`) and its runs (`LeasedRunColumns`). */
export interface LeasedJobTables {
  readonly requests: 'portfolio_backtest_requests' | 'climatology_requests' | 'product_backtest_requests';
  readonly runs: LeasedRunTable;
}

type RunEnding =
  | { readonly status: 'succeeded'; readonly at: Date }
  | { readonly status: 'failed'; readonly error: { code: string; detail: string }; readonly at: Date };

/** Claims the oldest request that has no run, or whose run's lease is over, with a lease of `leaseMs`: of
 *  runners claiming at once, one gets each job. Returns it with how many times it was claimed. */
export const claimLeasedJob = async (
  db: Kysely<ReadModels>,
  { requests, runs }: LeasedJobTables,
  { leaseId, now, leaseMs }: JobLease,
): Promise<{ readonly jobId: string; readonly attempts: number } | undefined> => {
  const until = new Date(now.getTime() + leaseMs);
  const run = sql.table(runs);
  const { rows } = await sql<{ job_id: string; attempts: number }>`
    with candidate as (
      select request.job_id from ${sql.table(requests)} request
      left join ${run} run on run.job_id = request.job_id
      where run.job_id is null or (run.status = 'running' and run.leased_until < ${now})
      order by request.requested_at, request.job_id
      limit 1
      for update of request skip locked)
    insert into ${run} (job_id, status, lease_id, leased_until, attempts, started_at)
    select job_id, 'running', ${leaseId}, ${until}, 1, ${now} from candidate
    on conflict (job_id) do update set
      lease_id = excluded.lease_id, leased_until = excluded.leased_until,
      attempts = ${run}.attempts + 1, started_at = excluded.started_at
    where ${run}.status = 'running' and ${run}.leased_until < ${now}
    returning job_id, attempts`.execute(db);
  const claimed = rows[0];
  return claimed && { jobId: claimed.job_id, attempts: claimed.attempts };
};

/** Keeps the lease while the run goes on; false when it was lost (another runner took the job over). */
export const renewJobLease = async (
  db: Kysely<ReadModels>,
  runs: LeasedRunTable,
  jobId: string,
  { leaseId, now, leaseMs }: JobLease,
): Promise<boolean> => {
  const result = await db
    .updateTable(runs)
    .set({ leased_until: new Date(now.getTime() + leaseMs) })
    .where('job_id', '=', jobId)
    .where('lease_id', '=', leaseId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Ends the run and its lease, if the lease is still `leaseId`'s; whether it was. */
const endRun = async (
  db: Kysely<ReadModels>,
  runs: LeasedRunTable,
  jobId: string,
  leaseId: string,
  ending: RunEnding,
): Promise<boolean> => {
  const ours = await db
    .updateTable(runs)
    .set({
      status: ending.status,
      lease_id: null,
      leased_until: null,
      completed_at: ending.at,
      error: ending.status === 'failed' ? JSON.stringify(ending.error) : null,
    })
    .where('job_id', '=', jobId)
    .where('lease_id', '=', leaseId)
    .executeTakeFirst();
  return ours.numUpdatedRows > 0n;
};

/** Records why the run failed, if the lease is still `leaseId`'s. */
export const failLeasedRun = async (
  db: Kysely<ReadModels>,
  runs: LeasedRunTable,
  jobId: string,
  leaseId: string,
  error: { readonly code: string; readonly detail: string },
  at: Date,
): Promise<void> => {
  await endRun(db, runs, jobId, leaseId, { status: 'failed', error, at });
};

/** Records the run's success, if the lease is still `leaseId`'s: with what `record` writes of its result
 *  (the kind's own columns and tables), in the same transaction. */
export const succeedLeasedRun = async (
  db: Kysely<ReadModels>,
  runs: LeasedRunTable,
  jobId: string,
  leaseId: string,
  at: Date,
  record: (trx: Transaction<ReadModels>) => Promise<void>,
): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    if (await endRun(trx, runs, jobId, leaseId, { status: 'succeeded', at })) await record(trx);
  });
};
