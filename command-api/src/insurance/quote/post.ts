import { loadPolicyDataSources, loadStream } from '@cropcover/application';
import { Quote, QuoteRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, utcDate } from '@cropcover/domain';
import { commandRoute } from '../../command-route';
import { COVER_REFUSED } from '../insurance-problems';

/** Endpoint 1: the premium the cover would be issued at today. Records nothing. */
export const quoteRoute = commandRoute(
  {
    method: 'post',
    path: '/insurance/quote',
    tags: ['Insurance'],
    summary: 'Price a cover (endpoint 1); quote and issue price identically',
    roles: ['insurer'],
    request: { body: QuoteRequest },
    success: { status: 200, schema: Quote, description: 'The quote' },
    problems: { 404: { description: 'Unknown farm', codes: ['not_found'] }, 422: COVER_REFUSED },
  },
  async ({ deps, body: request, organizationId }) => {
    const farm = await loadStream(deps.eventStore, farmStream(request.farm_id), farmAggregate);
    const dataSources = await loadPolicyDataSources(deps.eventStore, {
      organizationId,
      farm: farm.state,
      fieldId: request.field_id,
      perils: request.perils,
      choice: request.data_sources,
      defaults: deps.indexSourceDefaults,
    });
    return deps.priceQuote({ request, farm, today: utcDate(deps.clock.now()), dataSources });
  },
);
