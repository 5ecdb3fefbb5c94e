import { handleCommand } from '@cropcover/application';
import {
  FARM_ETAG_HEADER,
  Farm,
  FarmIfMatchHeader,
  FarmPathParams,
  FarmUpdateRequest,
  farmEtag,
  updatedAtOfFarmEtag,
} from '@cropcover/contracts';
import { farmAggregate, farmStream, updateFarm } from '@cropcover/domain';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { awaitReadModels } from '../../read-your-writes';
import { farmResponse } from '../../registry/farm-response';
import { ownerOf } from '../../registry/owner-of';
import { registeredFarm } from '../../registry/registered';
import { NOT_FARM_OWNER, UNKNOWN_FARM } from '../farm-problems';

/** Endpoint 10: omitted fields stay, null clears; a stale body `updated_at` is 409, a failed `If-Match`
 *  412 (RFC 9110). */
export const updateFarmRoute = commandRoute('PUT /farms/{farm_id}', {
  summary: 'Update a farm (owner or admin); updated_at or If-Match guard against lost updates',
  request: { params: FarmPathParams, headers: FarmIfMatchHeader, body: FarmUpdateRequest },
  success: { status: 200, schema: Farm, description: 'Updated', headers: FARM_ETAG_HEADER },
  problems: {
    403: NOT_FARM_OWNER,
    404: UNKNOWN_FARM,
    409: {
      description: 'version_conflict: the body updated_at is stale',
      codes: ['version_conflict', ...KEPT_CHANGING.codes],
    },
    412: { description: 'precondition_failed: If-Match names another version', codes: ['precondition_failed'] },
  },
}).handle(async ({ deps, params, headers, body, req, res, refuse }) => {
  const { updated_at, ...changes } = body;
  const ifMatch = headers['If-Match'];
  // `If-Match: "<updated_at in epoch ms>"` (the ETag of GET) as the updated_at it stands for; `*` is any.
  const ifMatchUpdatedAt = ifMatch === undefined || ifMatch.trim() === '*' ? undefined : updatedAtOfFarmEtag(ifMatch);
  if (ifMatch !== undefined && ifMatch.trim() !== '*' && ifMatchUpdatedAt === undefined)
    throw refuse('precondition_failed', 'If-Match does not name a version of this farm; GET it for its ETag.');
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    farmStream(params.farm_id),
    farmAggregate,
    (state) =>
      updateFarm(
        { actor: context.actor, changes, expectedUpdatedAt: updated_at, ifMatchUpdatedAt, now: context.now },
        state,
      ),
    context,
  );
  const farm = registeredFarm(outcome.state);
  const owner = await ownerOf(deps.eventStore, farm);
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  const response = farmResponse(farm, owner);
  res.setHeader('ETag', farmEtag(response));
  return response;
});
