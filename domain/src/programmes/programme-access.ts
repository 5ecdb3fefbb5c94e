import { type Actor, type ActorInRoles, canActForOrganization, holdsRole } from '../actor';
import { DomainError } from '../domain-error';
import type { OpenProgramme, Programme } from './programme';

/** Whether the actor may see a programme: its organization (and admins), and a reinsurer party to one of
 *  its treaties (SPEC §4: `reinsurer` reads the programmes and cessions of its treaties). Anyone else is
 *  told it does not exist. */
export const canSeeProgramme = (
  actor: ActorInRoles,
  programme: { readonly organization_id: string; readonly reinsurer_organization_ids: readonly string[] },
): boolean =>
  canActForOrganization(actor, programme.organization_id) ||
  (holdsRole(actor, 'reinsurer') &&
    actor.organizationId !== null &&
    programme.reinsurer_organization_ids.includes(actor.organizationId));

/** The open programme when the actor may change it: only its own organization (and admins). */
export const visibleOpenProgramme = (state: Programme, actor: Actor): OpenProgramme => {
  if (state.status === 'not_created' || !canActForOrganization(actor, state.organizationId)) {
    throw new DomainError('not_found', 'programme_not_found', 'no such programme');
  }
  return state;
};
