import { type EventStore, type GlobalPosition, parsePosition } from '@cropcover/eventstore';
import { ProblemError, setConsistencyStatus } from '@cropcover/runtime';
import type { RequestHandler } from 'express';

export interface ReadModelConsistency {
  waitFor(position: GlobalPosition, timeoutMs: number): Promise<boolean>;
}

const notIssued = (): ProblemError =>
  ProblemError.badRequest('invalid_consistency_token', 'Consistency-Token must be a value returned by a write.');

/** A read that carries the `Consistency-Token` of an earlier write waits (bounded) until the read
 *  models include that write, so a client that saw its write succeed also sees it here; when the wait
 *  runs out the read answers anyway, with `Consistency-Status: behind`. A token naming a position the
 *  log has not handed out was not issued by a write: refused at once, so no caller can make a read wait
 *  the whole bound for nothing. */
export const honourConsistencyToken =
  (consistency: ReadModelConsistency, timeoutMs: number, log: Pick<EventStore, 'mayHaveIssued'>): RequestHandler =>
  async (req, res, next) => {
    const token = req.get('Consistency-Token');
    if (token === undefined || req.method !== 'GET') return next();
    const position = parsePosition(token);
    if (!position || !(await log.mayHaveIssued(position))) throw notIssued();
    setConsistencyStatus(res, await consistency.waitFor(position, timeoutMs));
    next();
  };
