import type { PolicyEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Policy } from './policy';
import { visibleIssuedPolicy } from './policy-access';

export interface SettlePayout {
  readonly actor: Actor;
  readonly payoutId: string;
  readonly now: Date;
}

/** Marks an approved payout as paid out. Settling a settled payout changes nothing. */
export const settlePayout = (command: SettlePayout, state: Policy): PolicyEvent[] => {
  const policy = visibleIssuedPolicy(state, command.actor);
  const payout = policy.payouts.find((candidate) => candidate.payoutId === command.payoutId);
  if (payout === undefined) throw new DomainError('not_found', 'not_found', 'no such payout');
  if (payout.settledAt !== null) return [];
  return [
    {
      type: 'PayoutSettled',
      data: { policy_id: policy.issued.policy_id, payout_id: payout.payoutId, settled_at: command.now.toISOString() },
    },
  ];
};
