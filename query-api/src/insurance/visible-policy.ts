import { type Actor, canSeePolicy } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type Principal, ProblemError, requireRolesInOrganization } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** Who may read policies: insurers and auditors of an organization (and admins), always with an org_id. */
export const requirePolicyReader = (principal: Principal): string =>
  requireRolesInOrganization(principal, 'insurer', 'auditor');

export const policyNotFound = (policyId: string): ProblemError =>
  ProblemError.notFound(`No policy ${policyId} is visible to you.`);

/** The policy's aggregate from the read model when the actor may see it; 404 otherwise — never 403, so
 *  another organization cannot learn which policy ids exist. */
export const readVisiblePolicy = async (db: Kysely<ReadModels>, policyId: string, actor: Actor) => {
  const row = await db
    .selectFrom('policies')
    .select(['organization_id', 'aggregate'])
    .where('policy_id', '=', policyId)
    .executeTakeFirst();
  if (!row || !canSeePolicy(actor, row)) throw policyNotFound(policyId);
  return row.aggregate;
};
