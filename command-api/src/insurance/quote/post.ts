import { actorOf, loadStream } from '@cropcover/application';
import { Quote, QuoteRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, insurableFarm, utcDate } from '@cropcover/domain';
import { commandRoute } from '../../command-route';
import { coverDataSources } from '../cover-data-sources';
import { COVER_REFUSED, UNKNOWN_FARM_OR_PRODUCT } from '../insurance-problems';
import { productOfCover } from '../product-to-sell';

/** Endpoint 1: the premium the cover would be issued at today. Records nothing. */
export const quoteRoute = commandRoute('POST /insurance/quote', {
  summary: 'Price a cover (endpoint 1); quote and issue price identically',
  roles: ['insurer'],
  request: { body: QuoteRequest },
  success: { status: 200, schema: Quote, description: 'The quote' },
  problems: { 404: UNKNOWN_FARM_OR_PRODUCT, 422: COVER_REFUSED },
}).handle(async ({ deps, body: request, organizationId, principal }) => {
  const farm = await loadStream(deps.eventStore, farmStream(request.farm_id), farmAggregate);
  const today = utcDate(deps.clock.now());
  insurableFarm(farm.state, actorOf(principal), today);
  const product = await productOfCover(deps, organizationId, request.product);
  const dataSources = await coverDataSources(deps, organizationId, farm.state, request, product);
  return deps.priceQuote({ request, farm, today, dataSources, product });
});
