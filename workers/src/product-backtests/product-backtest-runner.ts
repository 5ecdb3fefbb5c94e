import { computeProductBacktest } from '@cropcover/application';
import { utcDate } from '@cropcover/domain';
import {
  claimProductBacktest,
  finishProductBacktest,
  type ProductBacktestOutcome,
  type ProductBacktestRequestRecord,
  type ReadModels,
  renewProductBacktestLease,
} from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import {
  type LeasedJobRunner,
  type LeasedJobRunnerOptions,
  startLeasedJobRunner,
} from '../leased-jobs/leased-job-runner';

// Runs the product backtests asked for (TERM-SHEETS.md §5.1), beside the monitor, as leased jobs: the lease
// is renewed as the job reads its locations, and a success writes each location's results.

export interface ProductBacktestRunnerOptions extends LeasedJobRunnerOptions {
  readonly db: Kysely<ReadModels>;
}

export const startProductBacktestRunner = (options: ProductBacktestRunnerOptions): LeasedJobRunner => {
  const { db, clock } = options;
  return startLeasedJobRunner<ProductBacktestRequestRecord, ProductBacktestOutcome>(
    {
      kind: 'product backtest',
      idOf: (request) => request.job_id,
      claim: (lease) => claimProductBacktest(db, lease),
      renew: (jobId, lease) => renewProductBacktestLease(db, jobId, lease),
      finish: (request, leaseId, ending) => finishProductBacktest(db, request.job_id, leaseId, ending),
      compute: (request, progress) => computeProductBacktest(db, request, utcDate(clock.now()), progress),
    },
    options,
  );
};
