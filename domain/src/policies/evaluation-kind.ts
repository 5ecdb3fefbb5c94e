import { DomainError } from '../domain-error';

/** No as_of or today: a live evaluation that may pay. Before today: a backtest. After today: refused. */
export const evaluationKind = (asOf: string | undefined, today: string): 'live' | 'backtest' => {
  if (asOf === undefined || asOf === today) return 'live';
  if (asOf > today) {
    throw new DomainError('rejected', 'as_of_in_future', `as_of ${asOf} is after today (${today})`);
  }
  return 'backtest';
};
