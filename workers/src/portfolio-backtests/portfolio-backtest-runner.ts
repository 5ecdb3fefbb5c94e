import { computePortfolioBacktest } from '@cropcover/application';
import type { PortfolioBacktestResult } from '@cropcover/contracts';
import type { EventStore } from '@cropcover/eventstore';
import {
  type BacktestRequestRecord,
  finishBacktest,
  loadBacktestRequest,
  portfolioBacktestJobs,
} from '@cropcover/read-store';
import {
  type LeasedJobRunner,
  type LeasedJobRunnerOptions,
  startLeasedJobRunner,
} from '../leased-jobs/leased-job-runner';

// Runs the as-if backtests asked for (SPEC §7), beside the monitor, as leased jobs: the lease is renewed
// as the job reads its zones.

export type PortfolioBacktestRunner = LeasedJobRunner;

export interface PortfolioBacktestRunnerOptions extends LeasedJobRunnerOptions {
  readonly eventStore: EventStore;
}

export const startPortfolioBacktestRunner = (options: PortfolioBacktestRunnerOptions): PortfolioBacktestRunner => {
  const { db } = options;
  return startLeasedJobRunner<BacktestRequestRecord, PortfolioBacktestResult>(
    {
      kind: 'backtest',
      tables: portfolioBacktestJobs,
      load: (jobId) => loadBacktestRequest(db, jobId),
      finish: (request, leaseId, result, at) => finishBacktest(db, request.job_id, leaseId, result, at),
      compute: (request, progress) => computePortfolioBacktest(options, request, progress),
    },
    options,
  );
};
