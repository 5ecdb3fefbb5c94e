import { computePortfolioBacktest } from '@cropcover/application';
import type { PortfolioBacktestResult } from '@cropcover/contracts';
import type { EventStore } from '@cropcover/eventstore';
import {
  type BacktestRequestRecord,
  claimBacktest,
  finishBacktest,
  type ReadModels,
  renewBacktestLease,
} from '@cropcover/read-store';
import type { Kysely } from 'kysely';
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
  readonly db: Kysely<ReadModels>;
}

export const startPortfolioBacktestRunner = (options: PortfolioBacktestRunnerOptions): PortfolioBacktestRunner => {
  const { db } = options;
  return startLeasedJobRunner<BacktestRequestRecord, PortfolioBacktestResult>(
    {
      kind: 'backtest',
      idOf: (request) => request.job_id,
      claim: (lease) => claimBacktest(db, lease),
      renew: (jobId, lease) => renewBacktestLease(db, jobId, lease),
      finish: (request, leaseId, ending) => finishBacktest(db, request.job_id, leaseId, ending),
      compute: (request, progress) => computePortfolioBacktest(options, request, progress),
    },
    options,
  );
};
