import { handleCommand } from '@cropcover/application';
import { NoBody, type Payout, PayoutPathParams } from '@cropcover/contracts';
import {
  canSeePolicy,
  policyAggregate,
  policyStream,
  settlePayout,
  toMajorUnits,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import { ProblemError, parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../../command-api-deps';
import { commandContextOf } from '../../../../command-context';
import { awaitReadModels } from '../../../../read-your-writes';
import { requireInsurer } from '../../../insurer';

/** POST /insurance/payouts/{payout_id}/settle — the insurer records an approved payout as paid out.
 *  Settling it again changes nothing and answers the same. */
export const settlePayoutRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    requireInsurer(context.principal);
    const { payout_id } = parseParams(PayoutPathParams, req);
    parseBody(NoBody, req);
    // The payout's policy comes from the read model, and is seen only by the policy's organization; the
    // policy stream then decides, and refuses a payout that is not on it or not the caller's.
    const row = await deps.db
      .selectFrom('policy_payouts')
      .select(['policy_id', 'organization_id'])
      .where('payout_id', '=', payout_id)
      .executeTakeFirst();
    if (row === undefined || !canSeePolicy(context.actor, row)) throw ProblemError.notFound('No such payout.');
    const outcome = await handleCommand(
      deps.eventStore,
      policyStream(row.policy_id),
      policyAggregate,
      (state) => settlePayout({ actor: context.actor, payoutId: payout_id, now: context.now }, state),
      context,
    );
    const policy = visibleIssuedPolicy(outcome.state, context.actor);
    const payout = policy.payouts.find((candidate) => candidate.payoutId === payout_id)!;
    await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
    const response: Payout = {
      payout_id,
      amount: toMajorUnits(payout.amountMinor, policy.issued.currency),
      currency: policy.issued.currency,
      status: 'settled',
      settled_at: payout.settledAt!,
    };
    res.json(response);
  };
