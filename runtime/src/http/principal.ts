import type { Request } from 'express';
import { ProblemError } from './problem';

/** Who is calling, from the verified bearer token. */
export interface Principal {
  readonly sub: string;
  readonly organizationId: string | null;
  readonly roles: readonly string[];
  readonly givenName?: string;
  readonly familyName?: string;
  readonly phoneNumber?: string;
}

const ADMIN_ROLE = 'admin';

/** Admins pass every role check and may act for any organization. */
export const isAdmin = (principal: Principal): boolean => principal.roles.includes(ADMIN_ROLE);

const principals = new WeakMap<Request, Principal>();

export const attachPrincipal = (req: Request, principal: Principal): void => {
  principals.set(req, principal);
};

/** The caller of a request that passed authentication; the authenticator must run first. */
export const principalOf = (req: Request): Principal => {
  const principal = principals.get(req);
  if (!principal) throw new Error('principalOf called on a route that is not behind the authenticator');
  return principal;
};

/** Passes when the caller has any of the roles, or is admin; otherwise 403 `forbidden`. */
export const requireRoles = (principal: Principal, ...roles: readonly string[]): void => {
  if (isAdmin(principal) || roles.some((role) => principal.roles.includes(role))) return;
  throw ProblemError.forbidden(`This requires one of the roles: ${roles.join(', ')}.`);
};

/** Returns the caller's organization id; 403 `organization_required` when the token has none. */
export const requireOrganization = (principal: Principal): string => {
  if (principal.organizationId !== null) return principal.organizationId;
  throw ProblemError.forbidden('This requires a token with an org_id claim.', 'organization_required');
};

/** requireRoles, then requireOrganization — for work that is always done for an organization (SPEC §4).
 *  Returns the caller's organization id. */
export const requireRolesInOrganization = (principal: Principal, ...roles: readonly string[]): string => {
  requireRoles(principal, ...roles);
  return requireOrganization(principal);
};
