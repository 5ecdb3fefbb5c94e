import { type CommandContext, issueInProgramme, type LoadedStream, loadStream } from '@cropcover/application';
import { Policy, PolicyIssueRequest } from '@cropcover/contracts';
import {
  DEFAULT_SETTLEMENT_PERIOD_DAYS,
  type Farm,
  farmAggregate,
  farmStream,
  initialPolicy,
  insurableFarm,
  issuePolicy,
  policyAggregate,
  policyStream,
  policyView,
  utcDate,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { isKeyed, newResourceId } from '../../idempotency/resource-id';
import { awaitReadModels } from '../../read-your-writes';
import { coverDataSources } from '../cover-data-sources';
import { COVER_REFUSED, UNKNOWN_FARM_OR_PRODUCT } from '../insurance-problems';
import { productOfCover } from '../product-to-sell';

/** Endpoint 3: issues the cover at the price its quote shows, on a farm the farmer granted the insurer's
 *  organization `insurance` access to (SPEC §6); issuing grants nothing by itself. */
export const issuePolicyRoute = commandRoute('POST /insurance/policies', {
  summary: 'Issue a policy (endpoint 3) with its trigger terms frozen',
  roles: ['insurer'],
  request: { body: PolicyIssueRequest },
  success: { status: 201, schema: Policy, description: 'Issued' },
  problems: {
    404: {
      description: `${UNKNOWN_FARM_OR_PRODUCT.description}; programme_not_found: no such programme in your organization`,
      codes: [...UNKNOWN_FARM_OR_PRODUCT.codes, 'programme_not_found'],
    },
    409: { description: 'A new policy kept colliding', codes: ['policy_exists', ...KEPT_CHANGING.codes] },
    422: {
      description: `${COVER_REFUSED.description}; or the policy would pass a capacity limit of its programme, or is not in its currency`,
      codes: [...COVER_REFUSED.codes, 'capacity_exceeded', 'currency_mismatch'],
    },
  },
}).handle(async ({ deps, body: request, organizationId, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const farm = await loadStream(deps.eventStore, farmStream(request.farm_id), farmAggregate);
  const policyId = newResourceId(res);
  // A keyed retry whose first run issued the policy but died before answering gets that policy, priced
  // as it was then, rather than a second one.
  const earlier = isKeyed(res)
    ? await loadStream(deps.eventStore, policyStream(policyId), policyAggregate)
    : { state: initialPolicy, expected: 'no_stream' as const, position: undefined };
  const issued =
    earlier.state.status === 'not_issued'
      ? await issueNewPolicy(deps, context, organizationId, request, farm, policyId)
      : { state: earlier.state, position: earlier.position };
  await awaitReadModels(deps.readYourWrites, res, issued.position);
  res.location(`/insurance/policies/${policyId}`);
  return policyView(visibleIssuedPolicy(issued.state, context.actor));
});

const issueNewPolicy = async (
  deps: CommandApiDeps,
  context: CommandContext,
  organizationId: string,
  request: PolicyIssueRequest,
  farm: LoadedStream<Farm>,
  policyId: string,
) => {
  insurableFarm(farm.state, context.actor, utcDate(context.now));
  const product = await productOfCover(deps, organizationId, request.product);
  // Resolved before the decision so the burning cost prices on the very data the policy freezes.
  const dataSources = await coverDataSources(deps, organizationId, farm.state, request, product);
  // Every reading each peril's data holds: the pricing picks the complete past seasons itself.
  const history = await deps.pricingReadings({ sources: dataSources });
  return issueInProgramme(
    deps.eventStore,
    policyId,
    (state) =>
      issuePolicy(
        {
          actor: context.actor,
          policyId,
          environment: deps.environment,
          request,
          farm: farm.state,
          dataSources,
          history,
          settlementPeriodDays: DEFAULT_SETTLEMENT_PERIOD_DAYS,
          now: context.now,
          product,
        },
        state,
      ),
    context,
  );
};
