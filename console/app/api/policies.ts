import type { PolicyListQuery, TriggerEvaluationHistoryItem } from '@cropcover/contracts';
import { callApi, everyPage } from './client';

// The policy endpoints the console reads, typed by the API's own contracts (type imports only: nothing
// of the server is bundled).

/** The list's filters as the page holds them: the query as the API reads it. */
export type PolicyFilters = Partial<Pick<PolicyListQuery, 'status' | 'farm_id' | 'peril' | 'page' | 'page_size'>>;

export const listPolicies = (filters: PolicyFilters, signal: AbortSignal) =>
  callApi('GET /insurance/policies', { query: filters }, signal);

export const getPolicy = (policyId: string, signal: AbortSignal) =>
  callApi('GET /insurance/policies/{policy_id}', { params: { policy_id: policyId } }, signal);

export const listTriggerCourses = (policyId: string, signal: AbortSignal) =>
  callApi('GET /insurance/policies/{policy_id}/trigger-courses', { params: { policy_id: policyId } }, signal);

export const listAllEvaluations = async (
  policyId: string,
  signal: AbortSignal,
): Promise<TriggerEvaluationHistoryItem[]> => {
  const pages = await everyPage((page, page_size) =>
    callApi(
      'GET /insurance/policies/{policy_id}/evaluations',
      { params: { policy_id: policyId }, query: { page, page_size } },
      signal,
    ),
  );
  return pages.flatMap((page) => page.items);
};
