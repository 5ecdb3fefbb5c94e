import { handleCommand, loadAggregate } from '@cropcover/application';
import { FarmerCreateRequest } from '@cropcover/contracts';
import { DomainError, farmerAggregate, farmerIdForSubject, farmerStream, registerFarmer } from '@cropcover/domain';
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { awaitReadModels } from '../../read-your-writes';
import { claimShareableId } from '../../registry/claim-shareable-id';
import { farmerResponse } from '../../registry/farmer-response';
import { registeredFarmer } from '../../registry/registered';

/** POST /farms/farmers — the caller's own farmer profile, 201; a second one is 409. */
export const createFarmerProfile =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const body = parseBody(FarmerCreateRequest, req);
    const context = commandContextOf(req, deps.clock.now());
    const farmerId = farmerIdForSubject(context.principal.sub);
    const stream = farmerStream(farmerId);
    // Refuse before claiming a shareable id, so a repeated POST does not burn codes.
    if ((await loadAggregate(deps.eventStore, stream, farmerAggregate)).status === 'registered') {
      throw new DomainError('conflict', 'farmer_profile_exists', 'this user already has a farmer profile');
    }
    const platformFarmerId = await claimShareableId(deps.eventStore, 'PF', stream, context);
    const outcome = await handleCommand(
      deps.eventStore,
      stream,
      farmerAggregate,
      (state) =>
        registerFarmer(
          {
            farmerId,
            subject: context.principal.sub,
            platformFarmerId,
            profile: {
              first_name: body.first_name,
              last_name: body.last_name,
              phone_number: body.phone_number ?? null,
              language: body.language ?? null,
              upload_channel: body.upload_channel ?? null,
              whatsapp_number: body.whatsapp_number ?? null,
              data_consent_given: body.data_consent_given ?? false,
            },
            source: 'profile',
            now: context.now,
          },
          state,
        ),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res
      .status(201)
      .location('/farms/farmers/me')
      .json(farmerResponse(registeredFarmer(outcome.state)));
  };
