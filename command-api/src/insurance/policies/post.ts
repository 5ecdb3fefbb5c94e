import { handleCommand, loadPolicyDataSources, loadPricingHistory, loadStream } from '@cropcover/application';
import { PolicyIssueRequest } from '@cropcover/contracts';
import {
  DEFAULT_SETTLEMENT_PERIOD_DAYS,
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
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
import { awaitReadModels } from '../../read-your-writes';
import { requireInsurer } from '../insurer';

/** POST /insurance/policies — endpoint 3: issues the cover at the price its quote shows, and links the
 *  insurer's organization to the farm so it may read the farm from then on. */
export const issuePolicyRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    const organizationId = requireInsurer(context.principal);
    const request = parseBody(PolicyIssueRequest, req);
    const farm = await loadStream(deps.eventStore, farmStream(request.farm_id), farmAggregate);
    // Resolved before the decision so the burning cost prices on the very data the policy freezes.
    const dataSources = await loadPolicyDataSources(deps.eventStore, {
      organizationId,
      farm: farm.state,
      fieldId: request.field_id,
      perils: request.perils,
      choice: request.data_sources,
      defaults: deps.indexSourceDefaults,
    });
    const history = await loadPricingHistory(deps.db, dataSources);
    const policyId = uuidv7();
    const issued = await handleCommand(
      deps.eventStore,
      policyStream(policyId),
      policyAggregate,
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
          },
          state,
        ),
      context,
      // A fresh UUID v7: the stream cannot exist yet, so there is nothing to read.
      { state: initialPolicy, expected: 'no_stream' },
    );
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
    await awaitReadModels(deps.readYourWrites, res, linked.appended?.position ?? issued.appended?.position);
    res
      .status(201)
      .location(`/insurance/policies/${policyId}`)
      .json(policyView(visibleIssuedPolicy(issued.state, context.actor)));
  };
