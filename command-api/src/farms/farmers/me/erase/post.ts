import { eraseFarmerData } from '@cropcover/application';
import { FarmerProfile } from '@cropcover/contracts';
import { farmerIdForSubject } from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';
import { farmerResponse } from '../../../../registry/farmer-response';
import { registeredFarmer } from '../../../../registry/registered';
import { farmerErasureDeps } from '../../farmer-erasure-deps';

/** The caller's own erasure (SPEC §6): their personal data reads as erased from now on, everywhere. */
export const eraseOwnFarmerProfile = commandRoute('POST /farms/farmers/me/erase', {
  summary: "Erase the caller's personal data (crypto-shredding); policies stay intact",
  success: { status: 200, schema: FarmerProfile, description: 'Erased (or already erased)' },
  problems: {
    404: { description: 'No profile', codes: ['farmer_profile_not_found'] },
    409: KEPT_CHANGING,
  },
}).handle(async ({ deps, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const target = { farmerId: farmerIdForSubject(context.principal.sub) };
  const outcome = await eraseFarmerData(farmerErasureDeps(deps), context, target, 'farmer');
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  return farmerResponse(registeredFarmer(outcome.state));
});
