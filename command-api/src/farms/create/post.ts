import { handleCommand } from '@cropcover/application';
import { type FarmAttributes, FarmCreateRequest, farmEtag } from '@cropcover/contracts';
import { farmAggregate, farmStream, registerFarm } from '@cropcover/domain';
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { awaitReadModels } from '../../read-your-writes';
import { claimShareableId } from '../../registry/claim-shareable-id';
import { ensureFarmer } from '../../registry/ensure-farmer';
import { farmResponse } from '../../registry/farm-response';
import { registeredFarm } from '../../registry/registered';

const attributesOf = (body: FarmCreateRequest): FarmAttributes => ({
  name: body.name,
  has_irrigation: body.has_irrigation ?? false,
  farm_type: body.farm_type ?? null,
  farm_size: body.farm_size ?? null,
  tenure_type: body.tenure_type ?? null,
  irrigation_type: body.irrigation_type ?? null,
  water_source: body.water_source ?? null,
  common_grown_crops: body.common_grown_crops ?? null,
  soil_type: body.soil_type ?? null,
  currency: body.currency ?? null,
  location: body.location ?? null,
  country: body.country ?? null,
});

/** POST /farms/create — endpoint 8: a farm owned by the caller's farmer profile (made on first use). */
export const createFarm =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const body = parseBody(FarmCreateRequest, req);
    const context = commandContextOf(req, deps.clock.now());
    const owner = await ensureFarmer(deps.eventStore, context);
    const farmId = uuidv7();
    const stream = farmStream(farmId);
    const platformFarmId = await claimShareableId(deps.eventStore, 'PM', stream, context);
    const outcome = await handleCommand(
      deps.eventStore,
      stream,
      farmAggregate,
      (state) =>
        registerFarm(
          {
            farmId,
            platformFarmId,
            ownerFarmerId: owner.farmerId,
            ownerSubject: owner.subject,
            attributes: attributesOf(body),
            now: context.now,
          },
          state,
        ),
      context,
    );
    const farm = registeredFarm(outcome.state);
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    const response = farmResponse(farm, owner);
    res.status(201).location(`/farms/${farmId}`).setHeader('ETag', farmEtag(response)).json(response);
  };
