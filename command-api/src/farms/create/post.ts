import { type CommandContext, loadStream } from '@cropcover/application';
import { FARM_ETAG_HEADER, Farm, FarmCreateRequest, farmEtag } from '@cropcover/contracts';
import { farmAggregate, farmStream, initialFarm, type RegisteredFarmer, registerFarm } from '@cropcover/domain';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { isKeyed, newResourceId } from '../../idempotency/resource-id';
import { awaitReadModels } from '../../read-your-writes';
import { ensureFarmer } from '../../registry/ensure-farmer';
import { attributesOf } from '../../registry/farm-attributes';
import { farmResponse } from '../../registry/farm-response';
import { registerWithShareableId } from '../../registry/register-with-shareable-id';
import { registeredFarm } from '../../registry/registered';

/** Endpoint 8: a farm owned by the caller's farmer profile (made on first use). */
export const createFarm = commandRoute('POST /farms/create', {
  summary: 'Register a farm owned by the caller',
  request: { body: FarmCreateRequest },
  success: { status: 201, schema: Farm, description: 'Created', headers: FARM_ETAG_HEADER },
  problems: {
    409: { description: 'A new farm or profile kept colliding', codes: ['farm_exists', ...KEPT_CHANGING.codes] },
  },
}).handle(async ({ deps, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const owner = await ensureFarmer(deps.eventStore, context);
  const farmId = newResourceId(res);
  const stream = farmStream(farmId);
  // A keyed retry whose first run registered the farm but died before answering gets that farm. An
  // unkeyed create names a fresh id no stream can have yet, so it does not read one.
  const earlier = isKeyed(res) ? await loadStream(deps.eventStore, stream, farmAggregate) : undefined;
  const outcome =
    earlier?.state.status === 'registered'
      ? { state: earlier.state, position: earlier.position }
      : await registerNewFarm(deps, context, stream, farmId, owner, body);
  const farm = registeredFarm(outcome.state);
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  const response = farmResponse(farm, owner);
  res.location(`/farms/${farmId}`).setHeader('ETag', farmEtag(response));
  return response;
});

const registerNewFarm = (
  deps: CommandApiDeps,
  context: CommandContext,
  stream: string,
  farmId: string,
  owner: RegisteredFarmer,
  body: FarmCreateRequest,
) =>
  registerWithShareableId(
    deps.eventStore,
    'PM',
    stream,
    farmAggregate,
    (platformFarmId) =>
      registerFarm(
        {
          farmId,
          platformFarmId,
          ownerFarmerId: owner.farmerId,
          ownerSubject: context.principal.sub,
          attributes: attributesOf(body),
          now: context.now,
        },
        initialFarm,
      ),
    context,
  );
