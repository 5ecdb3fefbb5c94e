import type { Peril, PortfolioBacktestJob, PortfolioBacktestResult } from '@cropcover/contracts';

// A backtest job as the API shows it, from its request and its run (none while queued).

export interface BacktestJobRecordOf {
  readonly job_id: string;
  readonly programme_id: string;
  readonly seasons: number;
  readonly as_of: string;
  readonly perils: readonly string[] | null;
  readonly apply_treaties: boolean;
  readonly requested_at: Date;
  readonly run: {
    readonly status: 'running' | 'succeeded' | 'failed';
    readonly started_at: Date;
    readonly completed_at: Date | null;
    readonly result: unknown;
    readonly error: unknown;
  } | null;
}

export const backtestJobView = (job: BacktestJobRecordOf): PortfolioBacktestJob => {
  const { run } = job;
  return {
    job_id: job.job_id,
    programme_id: job.programme_id,
    status: run?.status ?? 'queued',
    seasons: job.seasons,
    as_of: job.as_of,
    ...(job.perils === null ? {} : { perils: job.perils as Peril[] }),
    apply_treaties: job.apply_treaties,
    requested_at: job.requested_at.toISOString(),
    ...(run === null ? {} : { started_at: run.started_at.toISOString() }),
    ...(run?.completed_at ? { completed_at: run.completed_at.toISOString() } : {}),
    ...(run?.status === 'succeeded' ? { result: run.result as PortfolioBacktestResult } : {}),
    ...(run?.status === 'failed' ? { error: run.error as { code: string; detail: string } } : {}),
  };
};
