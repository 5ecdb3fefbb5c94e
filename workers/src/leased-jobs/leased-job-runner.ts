import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@cropcover/runtime';

// Runs jobs asked for through the API (as-if backtests, climatologies), beside the monitor: a job is a
// request row the command API wrote; a runner claims the oldest one with a lease, computes it, and
// records its result. The lease is renewed as the job reports progress; a runner that dies leaves the job
// to another once the lease is over, so a restart loses nothing. One job at a time per runner: a job is
// mostly CPU.

export interface LeasedJobRunner {
  stop(): Promise<void>;
}

export interface Lease {
  readonly leaseId: string;
  readonly now: Date;
  readonly leaseMs: number;
}

export type JobEnding<Result> =
  | { readonly status: 'succeeded'; readonly result: Result; readonly at: Date }
  | { readonly status: 'failed'; readonly error: { code: string; detail: string }; readonly at: Date };

/** The table side of one kind of job. */
export interface LeasedJobs<Request, Result> {
  /** For the log: `portfolio backtest`, `climatology`. */
  readonly kind: string;
  readonly idOf: (request: Request) => string;
  /** The oldest job without a live lease, now leased, with how many times it was claimed. */
  readonly claim: (lease: Lease) => Promise<{ readonly request: Request; readonly attempts: number } | undefined>;
  /** False when the lease was lost (another runner took the job over). */
  readonly renew: (jobId: string, lease: Lease) => Promise<boolean>;
  /** Records how the run ended, if the lease is still this runner's. */
  readonly finish: (request: Request, leaseId: string, ending: JobEnding<Result>) => Promise<void>;
  /** Runs the job, reporting progress now and then (the runner renews its lease on it). */
  readonly compute: (request: Request, progress: () => Promise<void>) => Promise<Result>;
}

export interface LeasedJobRunnerOptions {
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
  const { clock, logger } = options;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const leaseId = randomUUID();
  const code = jobs.kind.replaceAll(' ', '_');
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  const run = async (request: Request): Promise<void> => {
    const jobId = jobs.idOf(request);
    let renewedAt = clock.now().getTime();
    const progress = async () => {
      if (stopped) throw new LeaseLost('stopping');
      const now = clock.now();
      if (now.getTime() - renewedAt < leaseMs / 3) return;
      if (!(await jobs.renew(jobId, { leaseId, now, leaseMs }))) throw new LeaseLost('lease lost');
      renewedAt = now.getTime();
    };
    try {
      const result = await jobs.compute(request, progress);
      await jobs.finish(request, leaseId, { status: 'succeeded', result, at: clock.now() });
      logger.info({ job_id: jobId }, `${jobs.kind} done`);
    } catch (error) {
      // Stopping or overtaken: the job stays running under a lease that ends, and another run takes it.
      if (error instanceof LeaseLost) return;
      logger.error({ err: error, job_id: jobId }, `${jobs.kind} failed`);
      await jobs.finish(request, leaseId, {
        status: 'failed',
        error: { code: `${code}_failed`, detail: error instanceof Error ? error.message : String(error) },
        at: clock.now(),
      });
    }
  };

  const drain = async (): Promise<void> => {
    while (!stopped) {
      const claimed = await jobs.claim({ leaseId, now: clock.now(), leaseMs });
      if (claimed === undefined) return;
      if (claimed.attempts > MAX_ATTEMPTS) {
        await jobs.finish(claimed.request, leaseId, {
          status: 'failed',
          error: { code: `${code}_abandoned`, detail: `no run finished in ${MAX_ATTEMPTS} attempts` },
          at: clock.now(),
        });
        continue;
      }
      await run(claimed.request);
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
