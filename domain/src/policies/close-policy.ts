import type { PolicyEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { addDays, utcDate } from '../insurance/calendar/calendar-date';
import type { IssuedPolicy, Policy } from './policy';

/** The day a policy closes, from its first moment (UTC): term end plus the settlement period. Until
 *  then late readings still count; from then on nothing is paid (finality, SPEC §7). */
export const closingDate = (policy: IssuedPolicy): string =>
  addDays(policy.issued.term_end, policy.issued.settlement_period_days);

/** Whether a policy still open to payouts has reached its closing date: it must be closed before
 *  anything else happens to it. A lapsed policy never pays again and stays as it is. */
export const isClosingDue = (policy: IssuedPolicy, now: Date): boolean =>
  policy.closedAt === null &&
  (policy.status === 'active' || policy.status === 'claimed') &&
  utcDate(now) >= closingDate(policy);

export interface ClosePolicy {
  readonly now: Date;
}

/** Finality: from its closing date every policy still open to payouts is closed, claimed ones too —
 *  `expired` when nothing was paid, else it stays `claimed`. Closing a closed or lapsed policy records
 *  nothing. */
export const closePolicy = (command: ClosePolicy, state: Policy): PolicyEvent[] => {
  if (state.status === 'not_issued') throw new DomainError('not_found', 'not_found', 'no such policy');
  if (!isClosingDue(state, command.now)) {
    if (state.closedAt !== null || (state.status !== 'active' && state.status !== 'claimed')) return [];
    throw new DomainError(
      'rejected',
      'settlement_period_open',
      `the policy closes on ${closingDate(state)}, after the settlement period`,
    );
  }
  return [
    {
      type: 'PolicyClosed',
      data: {
        policy_id: state.issued.policy_id,
        status: state.paidMinor > 0 ? 'claimed' : 'expired',
        closed_at: command.now.toISOString(),
      },
    },
  ];
};

/** A live evaluation of a closed policy, or of one whose closing date has come (closed or not yet),
 *  is refused: finality does not wait for the monitor. */
export const refuseClosedPolicy = (policy: IssuedPolicy, now: Date): void => {
  if (policy.closedAt !== null || utcDate(now) >= closingDate(policy)) {
    throw new DomainError(
      'rejected',
      'policy_closed',
      `the policy closed on ${closingDate(policy)} (term end + ${policy.issued.settlement_period_days} days of settlement): it can only be backtested`,
    );
  }
};
