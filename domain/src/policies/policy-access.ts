import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { IssuedPolicy, Policy } from './policy';

/** The policy when it exists and belongs to the actor's organization (or the actor is an admin).
 *  Another organization is told it does not exist, never that it is forbidden (SPEC §4). */
export const visiblePolicy = (state: Policy, actor: Actor): IssuedPolicy => {
  if (state.status === 'not_issued' || (!actor.isAdmin && actor.organizationId !== state.issued.organization_id)) {
    throw new DomainError('not_found', 'not_found', 'no such policy');
  }
  return state;
};
