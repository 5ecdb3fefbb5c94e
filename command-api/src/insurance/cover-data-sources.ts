import { loadPolicyDataSources } from '@cropcover/application';
import type { QuoteRequest } from '@cropcover/contracts';
import type { Farm } from '@cropcover/domain';
import type { CommandApiDeps } from '../command-api-deps';

/** The data each peril of a requested cover reads, resolved alike for its quote and its issue (an issue
 *  request is a quote request with a term). */
export const coverDataSources = (
  deps: Pick<CommandApiDeps, 'eventStore' | 'indexSourceDefaults'>,
  organizationId: string,
  farm: Farm,
  request: Pick<QuoteRequest, 'field_id' | 'perils' | 'data_sources'>,
) =>
  loadPolicyDataSources(deps.eventStore, {
    organizationId,
    farm,
    fieldId: request.field_id,
    perils: request.perils,
    choice: request.data_sources,
    defaults: deps.indexSourceDefaults,
  });
