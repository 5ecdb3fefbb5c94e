import { computeClimatology } from '@cropcover/application';
import {
  type ClimatologyRequestRecord,
  type ComputedClimatology,
  claimClimatology,
  finishClimatology,
  type ReadModels,
  renewClimatologyLease,
} from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import {
  type LeasedJobRunner,
  type LeasedJobRunnerOptions,
  startLeasedJobRunner,
} from '../leased-jobs/leased-job-runner';

// Computes the climatologies asked for (INDEX-DATA §3), beside the monitor, as leased jobs: the lease is
// renewed as the job reads its locations, and a success writes the next version of the name.

export interface ClimatologyRunnerOptions extends LeasedJobRunnerOptions {
  readonly db: Kysely<ReadModels>;
}

export const startClimatologyRunner = (options: ClimatologyRunnerOptions): LeasedJobRunner => {
  const { db } = options;
  return startLeasedJobRunner<ClimatologyRequestRecord & { readonly started_at: Date }, ComputedClimatology>(
    {
      kind: 'climatology',
      idOf: (request) => request.job_id,
      claim: (lease) => claimClimatology(db, lease),
      renew: (jobId, lease) => renewClimatologyLease(db, jobId, lease),
      finish: (request, leaseId, ending) => finishClimatology(db, request, leaseId, ending),
      compute: (request, progress) => computeClimatology(db, request, progress),
    },
    options,
  );
};
