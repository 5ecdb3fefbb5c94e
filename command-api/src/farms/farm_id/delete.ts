import { handleCommand } from '@cropcover/application';
import { FarmPathParams, NoBody } from '@cropcover/contracts';
import { deactivateFarm, farmAggregate, farmStream } from '@cropcover/domain';
import { parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { awaitReadModels } from '../../read-your-writes';

/** DELETE /farms/{farm_id} — endpoint 11: soft delete (FarmDeactivated), 204. */
export const deleteFarm =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const { farm_id } = parseParams(FarmPathParams, req);
    parseBody(NoBody, req);
    const context = commandContextOf(req, deps.clock.now());
    const outcome = await handleCommand(
      deps.eventStore,
      farmStream(farm_id),
      farmAggregate,
      (state) => deactivateFarm({ actor: context.actor, now: context.now }, state),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res.status(204).end();
  };
