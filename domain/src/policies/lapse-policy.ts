import type { PolicyEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

export interface LapsePolicy {
  readonly actor: Actor;
  readonly reason: string;
  readonly now: Date;
}

/** Premium not paid: only an active policy that has paid nothing may lapse. */
export const lapsePolicy = (command: LapsePolicy, state: Policy): PolicyEvent[] => {
  const policy = visibleIssuedPolicy(state, command.actor);
  if (policy.status !== 'active' || policy.payouts.length > 0) {
    throw new DomainError(
      'rejected',
      'policy_not_lapsable',
      `only an active policy without payouts can lapse; this one is ${policy.status}`,
    );
  }
  return [
    {
      type: 'PolicyLapsed',
      data: { policy_id: policy.issued.policy_id, reason: command.reason, lapsed_at: command.now.toISOString() },
    },
  ];
};
