import type { ReadModels } from '@cropcover/read-store';
import { ADMIN_ROLE, type Principal, ProblemError, requireOrganization, requireRoles } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** Who may read policies: insurers and auditors of an organization (and admins), always with an org_id. */
export const requirePolicyReader = (principal: Principal): string => {
  requireRoles(principal, 'insurer', 'auditor');
  return requireOrganization(principal);
};

/** Whether a policy of `organizationId` is visible to the caller: its own organization's, or any for an
 *  admin — as the command side's visiblePolicy decides. */
export const canSeePolicy = (principal: Principal, organizationId: string): boolean =>
  principal.roles.includes(ADMIN_ROLE) || principal.organizationId === organizationId;

export const policyNotFound = (policyId: string): ProblemError =>
  ProblemError.notFound(`No policy ${policyId} is visible to you.`);

/** The policy's aggregate when the caller may read it; 404 otherwise — never 403, so another organization
 *  cannot learn which policy ids exist. */
export const visiblePolicy = async (db: Kysely<ReadModels>, policyId: string, principal: Principal) => {
  const row = await db
    .selectFrom('policies')
    .select(['organization_id', 'aggregate'])
    .where('policy_id', '=', policyId)
    .executeTakeFirst();
  if (!row || !canSeePolicy(principal, row.organization_id)) throw policyNotFound(policyId);
  return row.aggregate;
};
