import type { AccessPurpose, FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { utcDate } from '../insurance/calendar/calendar-date';
import type { Farm } from './farm';
import { managedFarm } from './farm-access';

export interface GrantFarmAccess {
  readonly actor: Actor;
  readonly organizationId: string;
  readonly purposes: readonly AccessPurpose[];
  readonly expiresOn: string | null;
  readonly now: Date;
}

/** The owner (or an admin) grants an organization access to the farm; a grant to an organization that
 *  holds one replaces it. The same grant again records nothing. */
export const grantFarmAccess = (command: GrantFarmAccess, state: Farm): FarmEvent[] => {
  const today = utcDate(command.now);
  const farm = managedFarm(state, command.actor, today);
  if (command.expiresOn !== null && command.expiresOn < today) {
    throw new DomainError('rejected', 'access_expiry_past', `expires_on ${command.expiresOn} is before today`, [
      { path: 'expires_on', message: 'must not be before today' },
    ]);
  }
  const held = farm.organizations.find((grant) => grant.organization_id === command.organizationId);
  const unchanged =
    held !== undefined &&
    held.origin !== 'policy_issued' &&
    held.expires_on === command.expiresOn &&
    held.purposes.join() === command.purposes.join();
  if (unchanged) return [];
  return [
    {
      type: 'FarmAccessGranted',
      data: {
        farm_id: farm.farmId,
        organization_id: command.organizationId,
        purposes: [...command.purposes],
        expires_on: command.expiresOn,
        origin: command.actor.subject === farm.ownerSubject ? 'owner' : 'admin',
        granted_by: command.actor.subject,
        granted_at: command.now.toISOString(),
      },
    },
  ];
};

export interface RevokeFarmAccess {
  readonly actor: Actor;
  readonly organizationId: string;
  readonly now: Date;
}

/** The owner (or an admin) ends an organization's access. Its policies already issued stay valid,
 *  evaluable and payable: they froze what they need at issue. */
export const revokeFarmAccess = (command: RevokeFarmAccess, state: Farm): FarmEvent[] => {
  const farm = managedFarm(state, command.actor, utcDate(command.now));
  if (!farm.organizations.some((grant) => grant.organization_id === command.organizationId)) {
    throw new DomainError(
      'not_found',
      'access_grant_not_found',
      `organization ${command.organizationId} holds no grant on this farm`,
    );
  }
  return [
    {
      type: 'FarmAccessRevoked',
      data: {
        farm_id: farm.farmId,
        organization_id: command.organizationId,
        revoked_by: command.actor.subject,
        revoked_at: command.now.toISOString(),
      },
    },
  ];
};
