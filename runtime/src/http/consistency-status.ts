import type { Response } from 'express';
import { Counter, type Registry } from 'prom-client';

// A write answers once a read would see it, and a read with a Consistency-Token waits for that write, both
// for a bounded time only. When the time runs out the request still succeeds; it must not do so silently.

/** `current` when the read models had caught up with the write, `behind` when the wait timed out. */
export const CONSISTENCY_STATUS_HEADER = 'Consistency-Status';

export const setConsistencyStatus = (res: Response, caughtUp: boolean): void => {
  res.setHeader(CONSISTENCY_STATUS_HEADER, caughtUp ? 'current' : 'behind');
};

interface ReadModelWait<Position> {
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/** The same waits, each one that times out counted in `cropcover_read_your_writes_timeouts_total`. */
export const countingWaitTimeouts = <Position, Wait extends ReadModelWait<Position>>(
  consistency: Wait,
  registry: Registry,
): Wait => {
  const timeouts = new Counter({
    name: 'cropcover_read_your_writes_timeouts_total',
    help: 'Writes and Consistency-Token reads that answered before the read models had caught up',
    registers: [registry],
  });
  return {
    ...consistency,
    waitFor: async (position: Position, timeoutMs: number) => {
      const caughtUp = await consistency.waitFor(position, timeoutMs);
      if (!caughtUp) timeouts.inc();
      return caughtUp;
    },
  };
};
