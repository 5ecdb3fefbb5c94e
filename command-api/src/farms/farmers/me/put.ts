import { handleCommand } from '@cropcover/application';
import { FarmerUpdateRequest } from '@cropcover/contracts';
import { farmerAggregate, farmerIdForSubject, farmerStream, updateFarmerProfile } from '@cropcover/domain';
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../command-api-deps';
import { commandContextOf } from '../../../command-context';
import { awaitReadModels } from '../../../read-your-writes';
import { farmerResponse } from '../../../registry/farmer-response';
import { registeredFarmer } from '../../../registry/registered';

/** PUT /farms/farmers/me — omitted fields stay, null clears an optional one. */
export const updateOwnFarmerProfile =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const changes = parseBody(FarmerUpdateRequest, req);
    const context = commandContextOf(req, deps.clock.now());
    const outcome = await handleCommand(
      deps.eventStore,
      farmerStream(farmerIdForSubject(context.principal.sub)),
      farmerAggregate,
      (state) => updateFarmerProfile({ changes, now: context.now }, state),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res.json(farmerResponse(registeredFarmer(outcome.state)));
  };
