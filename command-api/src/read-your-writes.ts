import { formatPosition, type GlobalPosition } from '@cropcover/eventstore';
import { setConsistencyStatus } from '@cropcover/runtime';
import type { Response } from 'express';

/** Waits until the read models include a position; false when the bounded wait ran out. */
export interface ReadModelConsistency {
  waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean>;
}

export interface ReadYourWrites {
  readonly consistency: ReadModelConsistency;
  readonly timeoutMs: number;
}

/** A write answers once a GET would see it (bounded: after the timeout it still succeeds, saying so in
 *  `Consistency-Status: behind`), and hands the position back so a client can ask the query API for at
 *  least that much. */
export const awaitReadModels = async (
  readYourWrites: ReadYourWrites,
  res: Response,
  position: GlobalPosition | undefined,
): Promise<void> => {
  if (position === undefined) return;
  res.setHeader('Consistency-Token', formatPosition(position));
  setConsistencyStatus(res, await readYourWrites.consistency.waitFor(position, readYourWrites.timeoutMs));
};
