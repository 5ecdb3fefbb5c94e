import { type ActorInRoles, canActForOrganization, holdsRole } from '../actor';

/** Whether the actor may read a treaty, its cessions and recoveries: the ceding organization (and
 *  admins), and the reinsurer party to it (SPEC §4) — a reinsurer never reads another reinsurer's treaty
 *  on the same programme. */
export const canSeeTreaty = (
  actor: ActorInRoles,
  treaty: { readonly organization_id: string; readonly reinsurer_organization_id: string | null },
): boolean =>
  canActForOrganization(actor, treaty.organization_id) ||
  (holdsRole(actor, 'reinsurer') &&
    treaty.reinsurer_organization_id !== null &&
    actor.organizationId === treaty.reinsurer_organization_id);
