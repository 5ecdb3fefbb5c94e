import { handleCommand } from '@cropcover/application';
import { LapseRequest, PolicyPathParams } from '@cropcover/contracts';
import { lapsePolicy, policyAggregate, policyStream, policyView, visibleIssuedPolicy } from '@cropcover/domain';
import { parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../../command-api-deps';
import { commandContextOf } from '../../../../command-context';
import { awaitReadModels } from '../../../../read-your-writes';
import { requireInsurer } from '../../../insurer';

/** POST /insurance/policies/{policy_id}/lapse — premium not paid: an active policy without payouts lapses. */
export const lapsePolicyRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    requireInsurer(context.principal);
    const { policy_id } = parseParams(PolicyPathParams, req);
    const { reason } = parseBody(LapseRequest, req);
    const outcome = await handleCommand(
      deps.eventStore,
      policyStream(policy_id),
      policyAggregate,
      (state) => lapsePolicy({ actor: context.actor, reason, now: context.now }, state),
      context,
    );
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    res.json(policyView(visibleIssuedPolicy(outcome.state, context.actor)));
  };
