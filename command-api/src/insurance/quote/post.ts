import { loadPolicyDataSources, loadStream } from '@cropcover/application';
import { QuoteRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, utcDate } from '@cropcover/domain';
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
    const farm = await loadStream(deps.eventStore, farmStream(request.farm_id), farmAggregate);
    const dataSources = await loadPolicyDataSources(deps.eventStore, {
      organizationId,
      farm: farm.state,
      fieldId: request.field_id,
      perils: request.perils,
      choice: request.data_sources,
      defaults: deps.indexSourceDefaults,
    });
    res.json(await deps.priceQuote({ request, farm, today: utcDate(deps.clock.now()), dataSources }));
  };
