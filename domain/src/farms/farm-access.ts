import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Farm, RegisteredFarm } from './farm';

/** What decides who sees a farm. The aggregate has it, and so do the registry's read models, so the
 *  command and the query side decide by the same rule. */
export interface FarmAudience {
  /** null while a farmer a field agent enrolled has not claimed the profile: only admins manage it. */
  readonly ownerSubject: string | null;
  readonly isActive: boolean;
  /** The farmer's unrevoked grants, live or expired. */
  readonly organizations: readonly { readonly organization_id: string; readonly expires_on: string | null }[];
}

/** A grant is live through the end of its `expires_on` day (UTC), or for good when it names none. */
export const isLiveGrant = (grant: { readonly expires_on: string | null }, today: string): boolean =>
  grant.expires_on === null || today <= grant.expires_on;

/** Only the owner or an admin changes a farm, grants and revokes access to it, or still sees it once
 *  deactivated; a granted organization may read it but not change it. */
export const canManageFarm = (actor: Actor, farm: Pick<FarmAudience, 'ownerSubject'>): boolean =>
  actor.isAdmin || actor.subject === farm.ownerSubject;

/** Whether the actor acts for an organization holding a live grant on the farm (SPEC §6): issuing a
 *  policy grants nothing by itself. */
const holdsLiveGrant = (actor: Actor, farm: FarmAudience, today: string): boolean =>
  actor.organizationId !== null &&
  farm.organizations.some((grant) => grant.organization_id === actor.organizationId && isLiveGrant(grant, today));

// Who may see a farm: its owner, admins, organizations with a live grant; a deactivated one only its
// owner and admins, and only when they ask for inactive farms. Everyone else is told it does not exist
// (404), never that it is forbidden, so ids cannot be probed.
export const canSeeFarm = (
  actor: Actor,
  farm: FarmAudience,
  { includeInactive = false, today }: { readonly includeInactive?: boolean; readonly today: string },
): boolean =>
  farm.isActive
    ? canManageFarm(actor, farm) || holdsLiveGrant(actor, farm, today)
    : includeInactive && canManageFarm(actor, farm);

/** Which of the farm's organizations the actor is shown: the owner and admins all, a granted
 *  organization only its own entry, never the farmer's other organizations. */
export const visibleOrganizations = <Grant extends { readonly organization_id: string }>(
  actor: Actor,
  farm: Pick<FarmAudience, 'ownerSubject'>,
  grants: readonly Grant[],
): Grant[] =>
  canManageFarm(actor, farm) ? [...grants] : grants.filter((grant) => grant.organization_id === actor.organizationId);

const noSuchFarm = (): DomainError => new DomainError('not_found', 'not_found', 'no such farm');

/** The farm, when it exists, is active and the actor may see it; otherwise a not_found refusal. */
export const visibleActiveFarm = (state: Farm, actor: Actor, today: string): RegisteredFarm => {
  if (state.status !== 'registered' || !canSeeFarm(actor, state, { today })) throw noSuchFarm();
  return state;
};

/** The farm the actor may change: visible and active, and theirs (or the actor is an admin). */
export const managedFarm = (state: Farm, actor: Actor, today: string): RegisteredFarm => {
  const farm = visibleActiveFarm(state, actor, today);
  if (!canManageFarm(actor, farm)) {
    throw new DomainError('forbidden', 'not_farm_owner', 'only the farm owner or an admin may change this farm');
  }
  return farm;
};

/** The farm the actor's organization may quote and insure: it holds a live `insurance` grant on it (an
 *  admin may always). Anyone else is answered as for an unknown farm. Whether the farm is still active
 *  is the cover's check (`farm_inactive`). */
export const insurableFarm = (state: Farm, actor: Actor, today: string): RegisteredFarm => {
  if (state.status !== 'registered') throw noSuchFarm();
  const granted = state.organizations.some(
    (grant) =>
      grant.organization_id === actor.organizationId &&
      grant.purposes.includes('insurance') &&
      isLiveGrant(grant, today),
  );
  if (!actor.isAdmin && !granted) throw noSuchFarm();
  return state;
};
