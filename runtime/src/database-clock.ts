import type pg from 'pg';
import type { Clock } from './clock';
import type { Logger } from './logger';

// Every process of a service keeps time by the database's clock (SPEC §10 Clocks): leases, retries and
// the monitor's day are decided in several processes, and they must not depend on those processes'
// clocks agreeing. The database's time is read once, then carried forward on this process's monotonic
// clock, which a step of the wall clock (NTP, an operator, a VM restored) leaves alone; it is read again
// every minute, so the process follows the database's clock however its own drifts or jumps.

/** Often enough that a monotonic clock's drift (parts per million) stays far below a millisecond. */
export const DATABASE_CLOCK_RESYNC_MS = 60_000;

export interface DatabaseClock extends Clock {
  stop(): void;
}

interface Anchor {
  /** The database's time, in epoch milliseconds, at `monotonic`. */
  readonly databaseMs: number;
  readonly monotonic: number;
}

export interface DatabaseClockOptions {
  readonly resyncMs?: number;
  /** Milliseconds from any fixed origin that only move forward, at the pace of real time. */
  readonly monotonicMs?: () => number;
}

const readAnchor = async (pool: Pick<pg.Pool, 'query'>, monotonicMs: () => number): Promise<Anchor> => {
  const sent = monotonicMs();
  const { rows } = await pool.query<{ at: string }>(
    'select (extract(epoch from clock_timestamp()) * 1000)::float8::text as at',
  );
  const answered = monotonicMs();
  // The database read its clock somewhere in the round trip: the middle is off by half of it at most.
  return { databaseMs: Number(rows[0]!.at), monotonic: (sent + answered) / 2 };
};

/** The database's clock for this process; fails when the database cannot be asked once at start. */
export const startDatabaseClock = async (
  pool: Pick<pg.Pool, 'query'>,
  logger: Logger,
  { resyncMs = DATABASE_CLOCK_RESYNC_MS, monotonicMs = () => performance.now() }: DatabaseClockOptions = {},
): Promise<DatabaseClock> => {
  let anchor = await readAnchor(pool, monotonicMs);
  let last = 0;
  const timer = setInterval(() => {
    readAnchor(pool, monotonicMs).then(
      (next) => {
        anchor = next;
      },
      // The anchor held still serves: the monotonic clock carries it until the database answers again.
      (error: unknown) => logger.warn({ err: error }, 'the database clock could not be read again; keeping the last'),
    );
  }, resyncMs);
  timer.unref();
  return {
    // Never backwards: a new anchor may disagree with the old by the drift of a minute.
    now: () => {
      last = Math.max(last, anchor.databaseMs + (monotonicMs() - anchor.monotonic));
      return new Date(last);
    },
    stop: () => clearInterval(timer),
  };
};
