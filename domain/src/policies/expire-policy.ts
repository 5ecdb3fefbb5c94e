import type { PolicyEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { addDays, utcDate } from '../insurance/calendar-date';
import type { IssuedPolicy, Policy } from './policy';

/** The first day a policy that paid nothing may expire: term end plus the settlement period. */
export const expiryDate = (policy: IssuedPolicy): string =>
  addDays(policy.issued.term_end, policy.issued.settlement_period_days);

export interface ExpirePolicy {
  readonly now: Date;
}

/** The monitor's expiry: an active policy expires once the settlement period is over. A claimed policy
 *  stays claimed, a lapsed or expired one as it is: nothing to record. */
export const expirePolicy = (command: ExpirePolicy, state: Policy): PolicyEvent[] => {
  if (state.status === 'not_issued') throw new DomainError('not_found', 'not_found', 'no such policy');
  if (state.status !== 'active') return [];
  const today = utcDate(command.now);
  if (today < expiryDate(state)) {
    throw new DomainError(
      'rejected',
      'settlement_period_open',
      `the policy can expire from ${expiryDate(state)}, after the settlement period`,
    );
  }
  return [
    { type: 'PolicyExpired', data: { policy_id: state.issued.policy_id, expired_at: command.now.toISOString() } },
  ];
};
