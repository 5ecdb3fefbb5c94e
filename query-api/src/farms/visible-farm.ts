import { type Actor, canSeeFarm } from '@cropcover/domain';
import { calendarDateOf, type ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import type { Kysely, Selectable } from 'kysely';

/** What a read of a farm answers when the caller may not see it. */
export const UNKNOWN_FARM = { description: 'Unknown or invisible', codes: ['not_found'] } as const;

/** The farm row when the actor may see it by the domain's rule (owner, admin, a live grant), else 404 — never 403, so other users
 *  cannot learn which farm ids exist. */
export const readVisibleFarm = async (
  db: Kysely<ReadModels>,
  farmId: string,
  actor: Actor,
  { includeInactive, today }: { includeInactive: boolean; today: string },
): Promise<Selectable<ReadModels['farms']>> => {
  const farm = await db.selectFrom('farms').selectAll().where('farm_id', '=', farmId).executeTakeFirst();
  if (farm) {
    const organizations = await db
      .selectFrom('farm_organizations')
      .select((eb) => ['organization_id', calendarDateOf(eb.ref('expires_on')).as('expires_on')])
      .where('farm_id', '=', farmId)
      .execute();
    const audience = { ownerSubject: farm.owner_subject, isActive: farm.is_active, organizations };
    if (canSeeFarm(actor, audience, { includeInactive, today })) return farm;
  }
  throw ProblemError.notFound(`No farm ${farmId} is visible to you.`);
};
