import type { Kysely } from 'kysely';
import { calendarDateOf } from '../calendar-date-column';
import type { ReadModels } from '../read-models';
import { type LeasedJobTables, succeedLeasedRun } from './leased-jobs';

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

export const portfolioBacktestJobs: LeasedJobTables = {
  requests: 'portfolio_backtest_requests',
  runs: 'portfolio_backtest_runs',
};

/** The request of a claimed job. */
export const loadBacktestRequest = async (db: Kysely<ReadModels>, jobId: string): Promise<BacktestRequestRecord> => {
  const request = await db
    .selectFrom('portfolio_backtest_requests as request')
    .select(requestColumns)
    .select((eb) => calendarDateOf(eb.ref('request.as_of')).as('as_of'))
    .where('request.job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return { ...request, perils: request.perils as string[] | null };
};

/** Records the run's result, if the lease is still this monitor's. */
export const finishBacktest = async (
  db: Kysely<ReadModels>,
  jobId: string,
  leaseId: string,
  result: unknown,
  at: Date,
): Promise<void> => {
  await succeedLeasedRun(db, 'portfolio_backtest_runs', jobId, leaseId, at, async (trx) => {
    await trx
      .updateTable('portfolio_backtest_runs')
      .set({ result: JSON.stringify(result) })
      .where('job_id', '=', jobId)
      .execute();
  });
};
