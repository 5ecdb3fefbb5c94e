import { type Kysely, sql } from 'kysely';
import { calendarDateOf } from '../calendar-date-column';
import type { ReadModels } from '../read-models';

// The as-if backtest jobs: what the command API records when one is asked for, what a monitor claims, and
// what the query API shows. A request is queued until a run exists; a run whose lease is over (its monitor
// died) is claimed again, so a restart loses no job.

export interface BacktestRequestRecord {
  readonly job_id: string;
  readonly programme_id: string;
  readonly organization_id: string;
  readonly seasons: number;
  readonly as_of: string;
  readonly perils: readonly string[] | null;
  readonly apply_treaties: boolean;
  readonly requested_at: Date;
}

export interface BacktestJobRecord extends BacktestRequestRecord {
  /** null while queued. */
  readonly run: {
    readonly status: 'running' | 'succeeded' | 'failed';
    readonly attempts: number;
    readonly started_at: Date;
    readonly completed_at: Date | null;
    readonly result: unknown;
    readonly error: unknown;
  } | null;
}

/** Records a request; one already recorded under its id (a keyed retry's first run) is left as it is. */
export const recordBacktestRequest = async (db: Kysely<ReadModels>, request: BacktestRequestRecord): Promise<void> => {
  await db
    .insertInto('portfolio_backtest_requests')
    .values({
      ...request,
      perils: request.perils === null ? null : JSON.stringify(request.perils),
    })
    .onConflict((conflict) => conflict.column('job_id').doNothing())
    .execute();
};

const requestColumns = [
  'request.job_id',
  'request.programme_id',
  'request.organization_id',
  'request.seasons',
  'request.perils',
  'request.apply_treaties',
  'request.requested_at',
] as const;

export const loadBacktestJob = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  jobId: string,
): Promise<BacktestJobRecord | undefined> => {
  const row = await db
    .selectFrom('portfolio_backtest_requests as request')
    .leftJoin('portfolio_backtest_runs as run', 'run.job_id', 'request.job_id')
    .select(requestColumns)
    .select((eb) => [
      calendarDateOf(eb.ref('request.as_of')).as('as_of'),
      'run.status',
      'run.attempts',
      'run.started_at',
      'run.completed_at',
      'run.result',
      'run.error',
    ])
    .where('request.job_id', '=', jobId)
    .where('request.programme_id', '=', programmeId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { status, attempts, started_at, completed_at, result, error, ...request } = row;
  return {
    ...request,
    perils: request.perils as string[] | null,
    run:
      status === null || started_at === null
        ? null
        : { status, attempts: attempts ?? 0, started_at, completed_at, result, error },
  };
};

export interface BacktestClaim {
  readonly leaseId: string;
  readonly now: Date;
  readonly leaseMs: number;
}

/** Claims the oldest request that has no run, or whose run's lease is over, with a lease of `leaseMs`:
 *  of monitors claiming at once, one gets each job. Returns it with how many times it was claimed. */
export const claimBacktest = async (
  db: Kysely<ReadModels>,
  { leaseId, now, leaseMs }: BacktestClaim,
): Promise<{ readonly request: BacktestRequestRecord; readonly attempts: number } | undefined> => {
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await sql<{ job_id: string; attempts: number }>`
    with candidate as (
      select request.job_id from portfolio_backtest_requests request
      left join portfolio_backtest_runs run on run.job_id = request.job_id
      where run.job_id is null or (run.status = 'running' and run.leased_until < ${now})
      order by request.requested_at, request.job_id
      limit 1
      for update of request skip locked)
    insert into portfolio_backtest_runs (job_id, status, lease_id, leased_until, attempts, started_at)
    select job_id, 'running', ${leaseId}, ${until}, 1, ${now} from candidate
    on conflict (job_id) do update set
      lease_id = excluded.lease_id, leased_until = excluded.leased_until,
      attempts = portfolio_backtest_runs.attempts + 1, started_at = excluded.started_at
    where portfolio_backtest_runs.status = 'running' and portfolio_backtest_runs.leased_until < ${now}
    returning job_id, attempts`.execute(db);
  const claimed = rows[0];
  if (claimed === undefined) return undefined;
  const request = await db
    .selectFrom('portfolio_backtest_requests as request')
    .select(requestColumns)
    .select((eb) => calendarDateOf(eb.ref('request.as_of')).as('as_of'))
    .where('request.job_id', '=', claimed.job_id)
    .executeTakeFirstOrThrow();
  return { request: { ...request, perils: request.perils as string[] | null }, attempts: claimed.attempts };
};

/** Keeps the lease while the run goes on; false when it was lost (another monitor took the job over). */
export const renewBacktestLease = async (
  db: Kysely<ReadModels>,
  jobId: string,
  { leaseId, now, leaseMs }: BacktestClaim,
): Promise<boolean> => {
  const result = await db
    .updateTable('portfolio_backtest_runs')
    .set({ leased_until: new Date(now.getTime() + leaseMs) })
    .where('job_id', '=', jobId)
    .where('lease_id', '=', leaseId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
};

/** Records how the run ended, if the lease is still this monitor's. */
export const finishBacktest = async (
  db: Kysely<ReadModels>,
  jobId: string,
  leaseId: string,
  ending:
    | { readonly status: 'succeeded'; readonly result: unknown; readonly at: Date }
    | { readonly status: 'failed'; readonly error: { code: string; detail: string }; readonly at: Date },
): Promise<void> => {
  await db
    .updateTable('portfolio_backtest_runs')
    .set({
      status: ending.status,
      lease_id: null,
      leased_until: null,
      completed_at: ending.at,
      result: ending.status === 'succeeded' ? JSON.stringify(ending.result) : null,
      error: ending.status === 'failed' ? JSON.stringify(ending.error) : null,
    })
    .where('job_id', '=', jobId)
    .where('lease_id', '=', leaseId)
    .execute();
};
