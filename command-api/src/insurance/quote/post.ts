import { loadAggregate, loadPolicyDataSources, loadPricingHistory } from '@cropcover/application';
import { QuoteRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, quoteCover, utcDate } from '@cropcover/domain';
import { parseBody, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';
import { requireInsurer } from '../insurer';

/** POST /insurance/quote — endpoint 1: the premium the cover would be issued at today. Records nothing. */
export const quoteRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const organizationId = requireInsurer(principalOf(req));
    const request = parseBody(QuoteRequest, req);
    const farm = await loadAggregate(deps.eventStore, farmStream(request.farm_id), farmAggregate);
    const dataSources = await loadPolicyDataSources(deps.eventStore, {
      organizationId,
      farm,
      fieldId: request.field_id,
      perils: request.perils,
      choice: request.data_sources,
      defaults: deps.indexSourceDefaults,
    });
    const history = await loadPricingHistory(deps.pricingReadings, dataSources);
    res.json(quoteCover({ request, farm, today: utcDate(deps.clock.now()), dataSources, history }));
  };
