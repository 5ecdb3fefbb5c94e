import type { ActorInRoles } from '@cropcover/domain';
import { isAdmin, type Principal } from '@cropcover/runtime';

/** The bearer token's caller as the domain's access rules know it; both APIs translate here, so a
 *  command and a query see the same actor. */
export const actorOf = (principal: Principal): ActorInRoles => ({
  subject: principal.sub,
  organizationId: principal.organizationId,
  isAdmin: isAdmin(principal),
  roles: principal.roles,
});
