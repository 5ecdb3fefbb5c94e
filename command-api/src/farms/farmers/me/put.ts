import { handleCommand } from '@cropcover/application';
import { FarmerProfile, FarmerUpdateRequest } from '@cropcover/contracts';
import { farmerAggregate, updateFarmerProfile } from '@cropcover/domain';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';
import { farmerResponse } from '../../../registry/farmer-response';
import { ownFarmerStream } from '../../../registry/own-farmer-stream';
import { registeredFarmer } from '../../../registry/registered';

export const updateOwnFarmerProfile = commandRoute('PUT /farms/farmers/me', {
  summary: "Update the caller's farmer profile (omitted fields stay, null clears)",
  request: { body: FarmerUpdateRequest },
  success: { status: 200, schema: FarmerProfile, description: 'Updated' },
  problems: {
    404: { description: 'No profile yet', codes: ['farmer_profile_not_found'] },
    409: KEPT_CHANGING,
    422: { description: 'The farmer was erased: the profile cannot change again', codes: ['farmer_erased'] },
  },
}).handle(async ({ deps, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    await ownFarmerStream(deps.eventStore, context.principal.sub),
    farmerAggregate,
    (state) => updateFarmerProfile({ changes: body, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return farmerResponse(registeredFarmer(outcome.state));
});
