import { PolicyPathParams, PolicyTriggerCourses, UNKNOWN_POLICY } from '@cropcover/contracts';
import { triggerCourses } from '@cropcover/domain';
import { queryRoute } from '../../../../query-route';
import { readLivePolicy } from '../../../live-policy';
import { POLICY_READERS } from '../../../visible-policy';

/** Each cover's reading and aggregate on each day of its window so far, with its trigger, exit and data
 *  source: what the console charts. Read from the frozen source and location only, like every evaluation. */
export const listTriggerCourses = queryRoute('GET /insurance/policies/{policy_id}/trigger-courses', {
  summary: "Each cover's aggregate on each day of its window so far, with its trigger, exit and data source",
  roles: POLICY_READERS,
  request: { params: PolicyPathParams },
  success: { status: 200, schema: PolicyTriggerCourses, description: 'The courses, one per cover' },
  problems: { 404: UNKNOWN_POLICY },
}).handle(async ({ deps, params: { policy_id }, principal }) => {
  const { policy, today, readings } = await readLivePolicy(deps, policy_id, principal);
  return { policy_id: policy.issued.policy_id, as_of: today, covers: triggerCourses(policy, readings, today) };
});
