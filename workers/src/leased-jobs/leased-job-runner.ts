import { randomUUID } from 'node:crypto';
import {
  claimLeasedJob,
  failLeasedRun,
  type LeasedJobTables,
  type ReadModels,
  renewJobLease,
} from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

// Runs jobs asked for through the API (as-if backtests, climatologies, product backtests), beside the
// monitor: a job is a request row the command API wrote; a runner claims the oldest one with a lease
// (read-store's leased jobs), computes it, and records its result. The lease is renewed as the job reports progress; a runner that dies leaves the job
// to another once the lease is over, so a restart loses nothing. One job at a time per runner: a job is
// mostly CPU.

export interface LeasedJobRunner {
  stop(): Promise<void>;
}

/** One kind of job: its tables, and what is its own in reading, running and recording one. */
export interface LeasedJobs<Request, Result> {
  /** For the log: `portfolio backtest`, `climatology`. */
  readonly kind: string;
  readonly tables: LeasedJobTables;
  /** The request of a job just claimed. */
  readonly load: (jobId: string) => Promise<Request>;
  /** Records a success's result, if the lease is still this runner's. */
  readonly finish: (request: Request, leaseId: string, result: Result, at: Date) => Promise<void>;
  /** Runs the job, reporting progress now and then (the runner renews its lease on it). */
  readonly compute: (request: Request, progress: () => Promise<void>) => Promise<Result>;
}

export interface LeasedJobRunnerOptions {
  readonly db: Kysely<ReadModels>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How often an idle runner looks for a job. */
  readonly pollMs?: number;
  readonly leaseMs?: number;
}

const POLL_MS = 500;
const LEASE_MS = 60_000;
/** A job claimed this many times never finished: it is recorded as failed rather than tried forever. */
const MAX_ATTEMPTS = 3;

class LeaseLost extends Error {}

export const startLeasedJobRunner = <Request, Result>(
  jobs: LeasedJobs<Request, Result>,
  options: LeasedJobRunnerOptions,
): LeasedJobRunner => {
  const { db, clock, logger } = options;
  const { runs } = jobs.tables;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const leaseId = randomUUID();
  const fail = (jobId: string, error: { code: string; detail: string }) =>
    failLeasedRun(db, runs, jobId, leaseId, error, clock.now());
  const code = jobs.kind.replaceAll(' ', '_');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  const run = async (jobId: string): Promise<void> => {
    const request = await jobs.load(jobId);
    let renewedAt = clock.now().getTime();
    const progress = async () => {
      if (stopped) throw new LeaseLost('stopping');
      const now = clock.now();
      if (now.getTime() - renewedAt < leaseMs / 3) return;
      if (!(await renewJobLease(db, runs, jobId, { leaseId, now, leaseMs }))) throw new LeaseLost('lease lost');
      renewedAt = now.getTime();
    };
    try {
      const result = await jobs.compute(request, progress);
      await jobs.finish(request, leaseId, result, clock.now());
      logger.info({ job_id: jobId }, `${jobs.kind} done`);
    } catch (error) {
      // Stopping or overtaken: the job stays running under a lease that ends, and another run takes it.
      if (error instanceof LeaseLost) return;
      logger.error({ err: error, job_id: jobId }, `${jobs.kind} failed`);
      await fail(jobId, {
        code: `${code}_failed`,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const drain = async (): Promise<void> => {
    while (!stopped) {
      const claimed = await claimLeasedJob(db, jobs.tables, { leaseId, now: clock.now(), leaseMs });
      if (claimed === undefined) return;
      if (claimed.attempts > MAX_ATTEMPTS) {
        await fail(claimed.jobId, {
          code: `${code}_abandoned`,
          detail: `no run finished in ${MAX_ATTEMPTS} attempts`,
        });
        continue;
      }
      await run(claimed.jobId);
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = drain()
        .catch((error: unknown) => logger.error({ err: error }, `${jobs.kind} runner pass failed`))
        .finally(schedule);
    }, options.pollMs ?? POLL_MS);
  };
  schedule();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
};
