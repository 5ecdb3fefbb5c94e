import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Farm, RegisteredFarm } from './farm';

// Who may see a farm: its owner, organizations linked to it, admins. Everyone else is told it does
// not exist (404), never that it is forbidden, so ids cannot be probed.
export const canSeeFarm = (farm: RegisteredFarm, actor: Actor): boolean =>
  actor.isAdmin ||
  actor.subject === farm.ownerSubject ||
  (actor.organizationId !== null && farm.organizations.some((o) => o.organization_id === actor.organizationId));

/** The farm, when it exists, is active and the actor may see it; otherwise a not_found refusal. */
export const visibleActiveFarm = (state: Farm, actor: Actor): RegisteredFarm => {
  if (state.status !== 'registered' || !state.isActive || !canSeeFarm(state, actor)) {
    throw new DomainError('not_found', 'not_found', 'no such farm');
  }
  return state;
};

/** Only the owner or an admin changes a farm; a linked organization may read it but not change it. */
export const managedFarm = (state: Farm, actor: Actor): RegisteredFarm => {
  const farm = visibleActiveFarm(state, actor);
  if (!actor.isAdmin && actor.subject !== farm.ownerSubject) {
    throw new DomainError('forbidden', 'not_farm_owner', 'only the farm owner or an admin may change this farm');
  }
  return farm;
};
