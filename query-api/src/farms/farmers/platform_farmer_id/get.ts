import { actorOf } from '@cropcover/application';
import { FarmerLookupResult, PlatformFarmerIdParams } from '@cropcover/contracts';
import { canSeeFarmer, normalizeShareableId } from '@cropcover/domain';
import { queryRoute } from '../../../query-route';
import { farmerView, farmViews } from '../../farm-view';

/** Endpoint 12: the farmer with their active farms. The owner (and admins) always; anyone else only when
 *  the farmer consented to share their data. Each farm shows a non-owner only its own organization's
 *  grant; seeing a farm here grants nothing. */
export const lookUpFarmer = queryRoute('GET /farms/farmers/{platform_farmer_id}', {
  summary: 'Look up a farmer with their active farms by the shareable id (owner, or consent given)',
  request: { params: PlatformFarmerIdParams },
  success: { status: 200, schema: FarmerLookupResult, description: 'The farmer' },
  problems: { 404: { description: 'Unknown or not shared', codes: ['not_found'] } },
}).handle(async ({ deps, params: { platform_farmer_id }, principal, refuse }) => {
  const code = normalizeShareableId('PF', platform_farmer_id);
  const farmer =
    code === undefined
      ? undefined
      : await deps.db.selectFrom('farmers').selectAll().where('platform_farmer_id', '=', code).executeTakeFirst();
  const actor = actorOf(principal);
  if (!farmer || !canSeeFarmer(actor, farmer))
    throw refuse('not_found', `No farmer ${platform_farmer_id} is visible to you.`);

  const farmRows = await deps.db
    .selectFrom('farms')
    .selectAll()
    .where('owner_farmer_id', '=', farmer.farmer_id)
    .where('is_active', '=', true)
    .orderBy('created_at')
    .orderBy('farm_id')
    .execute();
  return { ...farmerView(farmer), farms: await farmViews(deps.db, farmRows, actor), total_farms: farmRows.length };
});
