import { randomUUID } from 'node:crypto';
import { computePortfolioBacktest } from '@cropcover/application';
import type { EventStore } from '@cropcover/eventstore';
import {
  type BacktestRequestRecord,
  claimBacktest,
  finishBacktest,
  type ReadModels,
  renewBacktestLease,
} from '@cropcover/read-store';
import type { Clock, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

// Runs the as-if backtests asked for (SPEC §7), beside the monitor: a job is a request row the command
// API wrote; a runner claims the oldest one with a lease, computes it, and records its result. The lease
// is renewed as the job reads its zones; a runner that dies leaves the job to another once the lease is
// over, so a restart loses nothing. One job at a time per runner: a job is mostly CPU.

export interface PortfolioBacktestRunner {
  stop(): Promise<void>;
}

export interface PortfolioBacktestRunnerOptions {
  readonly eventStore: EventStore;
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

export const startPortfolioBacktestRunner = (options: PortfolioBacktestRunnerOptions): PortfolioBacktestRunner => {
  const { db, clock, logger } = options;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const leaseId = randomUUID();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();

  const run = async (request: BacktestRequestRecord): Promise<void> => {
    let renewedAt = clock.now().getTime();
    const progress = async () => {
      if (stopped) throw new LeaseLost('stopping');
      const now = clock.now();
      if (now.getTime() - renewedAt < leaseMs / 3) return;
      if (!(await renewBacktestLease(db, request.job_id, { leaseId, now, leaseMs }))) throw new LeaseLost('lease lost');
      renewedAt = now.getTime();
    };
    try {
      const result = await computePortfolioBacktest(options, request, progress);
      await finishBacktest(db, request.job_id, leaseId, { status: 'succeeded', result, at: clock.now() });
      logger.info({ job_id: request.job_id, programme_id: request.programme_id }, 'portfolio backtest done');
    } catch (error) {
      // Stopping or overtaken: the job stays running under a lease that ends, and another run takes it.
      if (error instanceof LeaseLost) return;
      logger.error({ err: error, job_id: request.job_id }, 'portfolio backtest failed');
      await finishBacktest(db, request.job_id, leaseId, {
        status: 'failed',
        error: { code: 'backtest_failed', detail: error instanceof Error ? error.message : String(error) },
        at: clock.now(),
      });
    }
  };

  const drain = async (): Promise<void> => {
    while (!stopped) {
      const claimed = await claimBacktest(db, { leaseId, now: clock.now(), leaseMs });
      if (claimed === undefined) return;
      if (claimed.attempts > MAX_ATTEMPTS) {
        await finishBacktest(db, claimed.request.job_id, leaseId, {
          status: 'failed',
          error: { code: 'backtest_abandoned', detail: `no run finished in ${MAX_ATTEMPTS} attempts` },
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
        .catch((error: unknown) => logger.error({ err: error }, 'portfolio backtest runner pass failed'))
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
