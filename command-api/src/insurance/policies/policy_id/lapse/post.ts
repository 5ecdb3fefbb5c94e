import { handleCommand } from '@cropcover/application';
import { LapseRequest, Policy, PolicyPathParams, UNKNOWN_POLICY } from '@cropcover/contracts';
import { lapsePolicy, policyAggregate, policyStream, policyView, visibleIssuedPolicy } from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';

/** Premium not paid: an active policy without payouts lapses. */
export const lapsePolicyRoute = commandRoute('POST /insurance/policies/{policy_id}/lapse', {
  summary: 'Lapse an active policy that has paid nothing (premium not paid)',
  roles: ['insurer'],
  request: { params: PolicyPathParams, body: LapseRequest },
  success: { status: 200, schema: Policy, description: 'Lapsed' },
  problems: {
    404: UNKNOWN_POLICY,
    409: KEPT_CHANGING,
    422: { description: 'policy_not_lapsable', codes: ['policy_not_lapsable'] },
  },
}).handle(async ({ deps, params: { policy_id }, body: { reason }, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    policyStream(policy_id),
    policyAggregate,
    (state) => lapsePolicy({ actor: context.actor, reason, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return policyView(visibleIssuedPolicy(outcome.state, context.actor));
});
