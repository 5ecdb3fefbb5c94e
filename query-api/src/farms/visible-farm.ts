import type { ReadModels } from '@cropcover/read-store';
import { ADMIN_ROLE, type Principal, ProblemError } from '@cropcover/runtime';
import type { Kysely, Selectable } from 'kysely';

/** The farm row when the caller may read it (owner, linked organization, admin), else 404 — never
 *  403, so other users cannot learn which farm ids exist. A deactivated farm is readable only by its
 *  owner or an admin who asks for inactive farms. */
export const visibleFarm = async (
  db: Kysely<ReadModels>,
  farmId: string,
  principal: Principal,
  { includeInactive }: { includeInactive: boolean },
): Promise<Selectable<ReadModels['farms']>> => {
  const farm = await db.selectFrom('farms').selectAll().where('farm_id', '=', farmId).executeTakeFirst();
  if (farm) {
    const isAdmin = principal.roles.includes(ADMIN_ROLE);
    const isOwner = farm.owner_subject === principal.sub;
    if (farm.is_active) {
      if (isAdmin || isOwner || (await isLinked(db, farmId, principal.organizationId))) return farm;
    } else if (includeInactive && (isAdmin || isOwner)) {
      return farm;
    }
  }
  throw ProblemError.notFound(`No farm ${farmId} is visible to you.`);
};

const isLinked = async (db: Kysely<ReadModels>, farmId: string, organizationId: string | null): Promise<boolean> => {
  if (organizationId === null) return false;
  const link = await db
    .selectFrom('farm_organizations')
    .select('farm_id')
    .where('farm_id', '=', farmId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return link !== undefined;
};
