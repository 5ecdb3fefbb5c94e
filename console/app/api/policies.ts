import type {
  EvaluationHistory,
  Policy,
  PolicyList,
  PolicyListQuery,
  PolicyTriggerCourses,
  TriggerEvaluationHistoryItem,
} from '@cropcover/contracts';
import { apiGet, apiGetAll } from './client';

// The policy endpoints the console reads, typed by the API's own contracts (type imports only: nothing
// of the server is bundled).

export type PolicyFilters = Partial<Pick<PolicyListQuery, 'status' | 'farm_id' | 'peril' | 'page' | 'page_size'>>;

export const listPolicies = (filters: PolicyFilters, signal: AbortSignal): Promise<PolicyList> =>
  apiGet<PolicyList>('/insurance/policies', filters, signal);

const policyPath = (policyId: string): string => `/insurance/policies/${encodeURIComponent(policyId)}`;

export const getPolicy = (policyId: string, signal: AbortSignal): Promise<Policy> =>
  apiGet<Policy>(policyPath(policyId), {}, signal);

export const listTriggerCourses = (policyId: string, signal: AbortSignal): Promise<PolicyTriggerCourses> =>
  apiGet<PolicyTriggerCourses>(`${policyPath(policyId)}/trigger-courses`, {}, signal);

export const listAllEvaluations = (policyId: string, signal: AbortSignal): Promise<TriggerEvaluationHistoryItem[]> =>
  apiGetAll<EvaluationHistory['items'][number]>(`${policyPath(policyId)}/evaluations`, {}, signal);
