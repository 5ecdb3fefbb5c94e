import { handleCommand } from '@cropcover/application';
import { FarmPathParams, FarmUpdateRequest, farmEtag, updatedAtOfFarmEtag } from '@cropcover/contracts';
import { farmAggregate, farmStream, updateFarm } from '@cropcover/domain';
import { ProblemError, parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { awaitReadModels } from '../../read-your-writes';
import { farmResponse } from '../../registry/farm-response';
import { ownerOf } from '../../registry/owner-of';
import { registeredFarm } from '../../registry/registered';

/** `If-Match: "<updated_at in epoch ms>"` (the ETag of GET) as the updated_at it stands for. */
const updatedAtFromIfMatch = (ifMatch: string | undefined): string | undefined => {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const updatedAt = updatedAtOfFarmEtag(ifMatch);
  if (updatedAt === undefined) {
    throw new ProblemError({
      status: 412,
      code: 'precondition_failed',
      title: 'Precondition failed',
      detail: 'If-Match does not name a version of this farm; GET it for its ETag.',
    });
  }
  return updatedAt;
};

/** PUT /farms/{farm_id} — endpoint 10: omitted fields stay, null clears; a stale body `updated_at` is
 *  409, a failed `If-Match` 412 (RFC 9110). */
export const updateFarmRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const { farm_id } = parseParams(FarmPathParams, req);
    const { updated_at, ...changes } = parseBody(FarmUpdateRequest, req);
    const ifMatchUpdatedAt = updatedAtFromIfMatch(req.get('If-Match'));
    const context = commandContextOf(req, deps.clock.now());
    const outcome = await handleCommand(
      deps.eventStore,
      farmStream(farm_id),
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
    res.setHeader('ETag', farmEtag(response)).json(response);
  };
