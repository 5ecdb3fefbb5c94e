import { handleCommand } from '@cropcover/application';
import { FarmPathParams } from '@cropcover/contracts';
import { deactivateFarm, farmAggregate, farmStream } from '@cropcover/domain';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { awaitReadModels } from '../../read-your-writes';
import { NOT_FARM_OWNER, UNKNOWN_FARM } from '../farm-problems';

/** Endpoint 11: soft delete (FarmDeactivated). */
export const deleteFarm = commandRoute('DELETE /farms/{farm_id}', {
  summary: 'Soft-delete a farm (owner or admin)',
  request: { params: FarmPathParams },
  success: { status: 204, description: 'Deactivated' },
  problems: {
    403: NOT_FARM_OWNER,
    404: UNKNOWN_FARM,
    409: KEPT_CHANGING,
  },
}).handle(async ({ deps, params, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    farmStream(params.farm_id),
    farmAggregate,
    (state) => deactivateFarm({ actor: context.actor, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return undefined;
});
