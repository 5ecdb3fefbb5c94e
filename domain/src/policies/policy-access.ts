import { type Actor, canActForOrganization } from '../actor';
import { DomainError } from '../domain-error';
import type { IssuedPolicy, Policy } from './policy';

/** Whether the actor may see a policy issued to `issued.organization_id`: only that organization (and
 *  admins) ever learns it exists (SPEC §4). Takes the PolicyIssued data, or any row that carries it. */
export const canSeePolicy = (actor: Actor, issued: { readonly organization_id: string }): boolean =>
  canActForOrganization(actor, issued.organization_id);

/** The issued policy when the actor may see it. Another organization is told it does not exist, never
 *  that it is forbidden (SPEC §4). */
export const visibleIssuedPolicy = (state: Policy, actor: Actor): IssuedPolicy => {
  if (state.status === 'not_issued' || !canSeePolicy(actor, state.issued)) {
    throw new DomainError('not_found', 'not_found', 'no such policy');
  }
  return state;
};
