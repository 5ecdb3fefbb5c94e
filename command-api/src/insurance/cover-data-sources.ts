import { loadPolicyDataSources } from '@cropcover/application';
import type { QuoteRequest } from '@cropcover/contracts';
import type { Farm, ProductTerms } from '@cropcover/domain';
import type { CommandApiDeps } from '../command-api-deps';

/** The data each peril of a requested cover reads (the index its cover in the product's sheet reads), resolved alike for its quote and its issue (an issue
 *  request is a quote request with a term). */
export const coverDataSources = (
  deps: Pick<CommandApiDeps, 'eventStore' | 'historyBackfills' | 'indexSourceDefaults' | 'db'>,
  organizationId: string,
  farm: Farm,
  request: Pick<QuoteRequest, 'field_id' | 'perils' | 'data_sources'>,
  product: ProductTerms,
) =>
  loadPolicyDataSources(deps.eventStore, deps.historyBackfills, deps.db, {
    organizationId,
    farm,
    fieldId: request.field_id,
    perils: request.perils,
    choice: request.data_sources,
    defaults: deps.indexSourceDefaults,
    sheet: product.sheet,
  });
