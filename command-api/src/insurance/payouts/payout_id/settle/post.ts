import { handleCommand } from '@cropcover/application';
import { Payout, PayoutPathParams, UNKNOWN_POLICY } from '@cropcover/contracts';
import {
  canSeePolicy,
  policyAggregate,
  policyStream,
  settlePayout,
  toMajorUnits,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';

/** The insurer records an approved payout as paid out. Settling it again changes nothing and answers the same. */
export const settlePayoutRoute = commandRoute('POST /insurance/payouts/{payout_id}/settle', {
  summary: 'Mark an approved payout as settled',
  roles: ['insurer'],
  request: { params: PayoutPathParams },
  success: { status: 200, schema: Payout, description: 'Settled' },
  problems: { 404: UNKNOWN_POLICY, 409: KEPT_CHANGING },
}).handle(async ({ deps, params: { payout_id }, req, res, refuse }) => {
  const context = commandContextOf(req, deps.clock.now());
  // The payout's policy comes from the read model, and is seen only by the policy's organization; the
  // policy stream then decides, and refuses a payout that is not on it or not the caller's.
  const row = await deps.db
    .selectFrom('policy_payouts')
    .select(['policy_id', 'organization_id'])
    .where('payout_id', '=', payout_id)
    .executeTakeFirst();
  if (row === undefined || !canSeePolicy(context.actor, row)) throw refuse('not_found', 'No such payout.');
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
  return {
    payout_id,
    amount: toMajorUnits(payout.amountMinor, policy.issued.currency),
    currency: policy.issued.currency,
    status: 'settled' as const,
    settled_at: payout.settledAt!,
  };
});
