import {
  type CommandContext,
  handleCommand,
  issueInProgramme,
  type LoadedStream,
  loadStream,
} from '@cropcover/application';
import { Policy, PolicyIssueRequest } from '@cropcover/contracts';
import {
  DEFAULT_SETTLEMENT_PERIOD_DAYS,
  type Farm,
  farmAggregate,
  farmStream,
  initialPolicy,
  issuePolicy,
  linkFarmToOrganization,
  policyAggregate,
  policyStream,
  policyView,
  visibleIssuedPolicy,
} from '@cropcover/domain';
import { comparePositions, type GlobalPosition } from '@cropcover/eventstore';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { isKeyed, newResourceId } from '../../idempotency/resource-id';
import { awaitReadModels } from '../../read-your-writes';
import { coverDataSources } from '../cover-data-sources';
import { COVER_REFUSED, UNKNOWN_FARM_OR_PRODUCT } from '../insurance-problems';
import { productOfCover } from '../product-to-sell';

const later = (a: GlobalPosition | undefined, b: GlobalPosition | undefined): GlobalPosition | undefined =>
  a === undefined ? b : b === undefined || comparePositions(a, b) >= 0 ? a : b;

/** Endpoint 3: issues the cover at the price its quote shows, and links the insurer's organization to the
 *  farm so it may read the farm from then on. */
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
  // A second append on another stream, not one transaction: the policy is the source of truth and
  // the link only grants read access to the farm. Linking is idempotent, so if this append fails the
  // next policy issued on the farm makes the link.
  const linked = await handleCommand(
    deps.eventStore,
    farmStream(request.farm_id),
    farmAggregate,
    (state) => linkFarmToOrganization({ organizationId, now: context.now }, state),
    context,
    farm,
  );
  // The later of policy and link; on a keyed retry both may be its first run's, and the answer must
  // still carry a token a GET of that policy honours.
  await awaitReadModels(deps.readYourWrites, res, later(issued.position, linked.position));
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
