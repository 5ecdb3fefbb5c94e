import { actorOf } from '@cropcover/application';
import { type AccessOrigin, type AccessPurpose, FarmAccessList, FarmPathParams } from '@cropcover/contracts';
import { canManageFarm, utcDate } from '@cropcover/domain';
import { calendarDateOf } from '@cropcover/read-store';
import { queryRoute } from '../../../query-route';
import { isoTimestamp } from '../../../timestamps';
import { readVisibleFarm, UNKNOWN_FARM } from '../../visible-farm';

/** The farm's unrevoked grants, live or expired, oldest first (SPEC §6): for the owner and admins only.
 *  A granted organization is told the farm's grants do not exist, as anyone who cannot see the farm. */
export const listFarmAccess = queryRoute('GET /farms/{farm_id}/access', {
  summary: "A farm's access grants (owner or admin)",
  request: { params: FarmPathParams },
  success: { status: 200, schema: FarmAccessList, description: 'The grants' },
  problems: { 404: UNKNOWN_FARM },
}).handle(async ({ deps, params: { farm_id }, principal, refuse }) => {
  const actor = actorOf(principal);
  const farm = await readVisibleFarm(deps.db, farm_id, actor, {
    includeInactive: true,
    today: utcDate(deps.clock.now()),
  });
  if (!canManageFarm(actor, { ownerSubject: farm.owner_subject }))
    throw refuse('not_found', `No farm ${farm_id} is visible to you.`);
  const rows = await deps.db
    .selectFrom('farm_organizations')
    .select((eb) => [
      'organization_id',
      'purposes',
      'relationship',
      'origin',
      'linked_at',
      calendarDateOf(eb.ref('expires_on')).as('expires_on'),
    ])
    .where('farm_id', '=', farm_id)
    .orderBy('linked_at')
    .orderBy('organization_id')
    .execute();
  const items = rows.map((row) => ({
    farm_id,
    organization_id: row.organization_id,
    purposes: row.purposes as AccessPurpose[],
    relationship: row.relationship as AccessPurpose,
    origin: row.origin as AccessOrigin,
    granted_at: isoTimestamp(row.linked_at),
    expires_on: row.expires_on,
  }));
  return { items };
});
