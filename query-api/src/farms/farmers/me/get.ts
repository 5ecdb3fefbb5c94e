import { FarmerProfile } from '@cropcover/contracts';
import { queryRoute } from '../../../query-route';
import { farmerView } from '../../farm-view';

export const getOwnFarmerProfile = queryRoute('GET /farms/farmers/me', {
  summary: "The caller's farmer profile",
  success: { status: 200, schema: FarmerProfile, description: 'The profile' },
  problems: { 404: { description: 'No profile yet', codes: ['farmer_profile_not_found'] } },
}).handle(async ({ deps, principal, refuse }) => {
  const row = await deps.db.selectFrom('farmers').selectAll().where('subject', '=', principal.sub).executeTakeFirst();
  if (!row)
    throw refuse('farmer_profile_not_found', 'You have no farmer profile yet: POST /farms/farmers, or create a farm.');
  return farmerView(row);
});
