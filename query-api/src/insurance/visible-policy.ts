import { type Actor, asLastCheckedOn, canSeePolicy } from '@cropcover/domain';
import { calendarDateOf, type ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** Who may read policies: insurers and auditors of an organization (and admins), always with an org_id. */
export const POLICY_READERS = ['insurer', 'auditor'] as const;

export const policyNotFound = (policyId: string): ProblemError =>
  ProblemError.notFound(`No policy ${policyId} is visible to you.`);

/** The policy's aggregate from the read model, as of the monitor's last round, when the actor may see it; 404 otherwise — never 403, so
 *  another organization cannot learn which policy ids exist. */
export const readVisiblePolicy = async (db: Kysely<ReadModels>, policyId: string, actor: Actor) => {
  const row = await db
    .selectFrom('policies')
    .leftJoin('policy_monitor_rounds as rounds', 'rounds.policy_id', 'policies.policy_id')
    .select(['policies.organization_id', 'policies.aggregate'])
    .select((eb) => calendarDateOf(eb.ref('rounds.checked_on')).as('checked_on'))
    .where('policies.policy_id', '=', policyId)
    .executeTakeFirst();
  if (!row || !canSeePolicy(actor, row)) throw policyNotFound(policyId);
  return asLastCheckedOn(row.aggregate, row.checked_on);
};
