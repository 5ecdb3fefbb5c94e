import { computeProductBacktest } from '@cropcover/application';
import { utcDate } from '@cropcover/domain';
import {
  finishProductBacktest,
  loadProductBacktestRequest,
  type ProductBacktestOutcome,
  type ProductBacktestRequestRecord,
  productBacktestJobs,
} from '@cropcover/read-store';
import {
  type LeasedJobRunner,
  type LeasedJobRunnerOptions,
  startLeasedJobRunner,
} from '../leased-jobs/leased-job-runner';

// Runs the product backtests asked for (TERM-SHEETS.md §5.1), beside the monitor, as leased jobs: the lease
// is renewed as the job reads its locations, and a success writes each location's results.

export const startProductBacktestRunner = (options: LeasedJobRunnerOptions): LeasedJobRunner => {
  const { db, clock } = options;
  return startLeasedJobRunner<ProductBacktestRequestRecord, ProductBacktestOutcome>(
    {
      kind: 'product backtest',
      tables: productBacktestJobs,
      load: (jobId) => loadProductBacktestRequest(db, jobId),
      finish: (request, leaseId, result, at) => finishProductBacktest(db, request.job_id, leaseId, result, at),
      compute: (request, progress) => computeProductBacktest(db, request, utcDate(clock.now()), progress),
    },
    options,
  );
};
