import { Policy, PolicyPathParams, UNKNOWN_POLICY } from '@cropcover/contracts';
import { liveTriggerStatus, policyView } from '@cropcover/domain';
import { queryRoute } from '../../../query-route';
import { readLivePolicy } from '../../live-policy';
import { POLICY_READERS } from '../../visible-policy';

/** Endpoint 4: the policy with each peril's trigger as it stands today, computed from the field's readings
 *  so far, not from the last evaluation. */
export const getPolicy = queryRoute('GET /insurance/policies/{policy_id}', {
  summary: 'A policy with the live status of each trigger (endpoint 4)',
  roles: POLICY_READERS,
  request: { params: PolicyPathParams },
  success: { status: 200, schema: Policy, description: 'The policy' },
  problems: { 404: UNKNOWN_POLICY },
}).handle(async ({ deps, params: { policy_id }, principal }) => {
  const { policy, today, readings } = await readLivePolicy(deps, policy_id, principal);
  return { ...policyView(policy), triggers: liveTriggerStatus(policy, readings, today) };
});
