import { actorOf, eraseFarmerData } from '@cropcover/application';
import { FarmerProfile, PlatformFarmerIdParams } from '@cropcover/contracts';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';
import { farmerResponse } from '../../../../registry/farmer-response';
import { registeredFarmer } from '../../../../registry/registered';
import { farmerErasureDeps } from '../../farmer-erasure-deps';

/** An admin erases a farmer on their behalf (SPEC §6), named by the shareable id. */
export const eraseFarmerProfile = commandRoute('POST /farms/farmers/{platform_farmer_id}/erase', {
  summary: "Erase a farmer's personal data on their behalf (admin; crypto-shredding)",
  request: { params: PlatformFarmerIdParams },
  success: { status: 200, schema: FarmerProfile, description: 'Erased (or already erased)' },
  problems: {
    403: { description: 'Not an admin', codes: ['forbidden'] },
    404: { description: 'Unknown farmer', codes: ['farmer_profile_not_found'] },
    409: KEPT_CHANGING,
  },
}).handle(async ({ deps, params: { platform_farmer_id }, principal, req, res, refuse }) => {
  // Admins act for any farmer; the route's roles cannot say so (every declared role admits admins too).
  if (!actorOf(principal).isAdmin) throw refuse('forbidden', 'Only an admin erases a farmer on their behalf.');
  const context = commandContextOf(req, deps.clock.now());
  const target = { platformFarmerId: platform_farmer_id };
  const outcome = await eraseFarmerData(farmerErasureDeps(deps), context, target, 'admin');
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  return farmerResponse(registeredFarmer(outcome.state));
});
