import { computeClimatology } from '@cropcover/application';
import {
  type ClimatologyRequestRecord,
  type ComputedClimatology,
  climatologyJobs,
  finishClimatology,
  loadClimatologyRequest,
} from '@cropcover/read-store';
import {
  type LeasedJobRunner,
  type LeasedJobRunnerOptions,
  startLeasedJobRunner,
} from '../leased-jobs/leased-job-runner';

// Computes the climatologies asked for (INDEX-DATA §3), beside the monitor, as leased jobs: the lease is
// renewed as the job reads its locations, and a success writes the next version of the name.

export const startClimatologyRunner = (options: LeasedJobRunnerOptions): LeasedJobRunner => {
  const { db } = options;
  return startLeasedJobRunner<ClimatologyRequestRecord & { readonly started_at: Date }, ComputedClimatology>(
    {
      kind: 'climatology',
      tables: climatologyJobs,
      load: (jobId) => loadClimatologyRequest(db, jobId),
      finish: (request, leaseId, result, at) => finishClimatology(db, request, leaseId, result, at),
      compute: (request, progress) => computeClimatology(db, request, progress),
    },
    options,
  );
};
