import { type Actor, canActForOrganization } from '../actor';
import { DomainError } from '../domain-error';
import type { Farm, RegisteredFarm } from './farm';

/** What decides who sees a farm. The aggregate has it, and so do the registry's read models, so the
 *  command and the query side decide by the same rule. */
export interface FarmAudience {
  readonly ownerSubject: string;
  readonly isActive: boolean;
  readonly organizations: readonly { readonly organization_id: string }[];
}

/** Only the owner or an admin changes a farm, or still sees it once deactivated; a linked organization
 *  may read it but not change it. */
export const canManageFarm = (actor: Actor, farm: Pick<FarmAudience, 'ownerSubject'>): boolean =>
  actor.isAdmin || actor.subject === farm.ownerSubject;

// Who may see a farm: its owner, organizations linked to it, admins; a deactivated one only its owner
// and admins, and only when they ask for inactive farms. Everyone else is told it does not exist (404),
// never that it is forbidden, so ids cannot be probed.
export const canSeeFarm = (actor: Actor, farm: FarmAudience, { includeInactive = false } = {}): boolean =>
  farm.isActive
    ? canManageFarm(actor, farm) ||
      farm.organizations.some((link) => canActForOrganization(actor, link.organization_id))
    : includeInactive && canManageFarm(actor, farm);

/** The farm, when it exists, is active and the actor may see it; otherwise a not_found refusal. */
export const visibleActiveFarm = (state: Farm, actor: Actor): RegisteredFarm => {
  if (state.status !== 'registered' || !canSeeFarm(actor, state)) {
    throw new DomainError('not_found', 'not_found', 'no such farm');
  }
  return state;
};

/** The farm the actor may change: visible and active, and theirs (or the actor is an admin). */
export const managedFarm = (state: Farm, actor: Actor): RegisteredFarm => {
  const farm = visibleActiveFarm(state, actor);
  if (!canManageFarm(actor, farm)) {
    throw new DomainError('forbidden', 'not_farm_owner', 'only the farm owner or an admin may change this farm');
  }
  return farm;
};
