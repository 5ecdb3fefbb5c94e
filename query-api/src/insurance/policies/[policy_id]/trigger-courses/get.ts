import type { PolicyTriggerCourses } from '@cropcover/contracts';
import { triggerCourses } from '@cropcover/domain';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../../query-api-deps';
import { readLivePolicy } from '../../../live-policy';

/** GET /insurance/policies/{policy_id}/trigger-courses — each cover's reading and aggregate on each day of
 *  its window so far, with its trigger, exit and data source: what the console charts. Read from the
 *  frozen source and location only, like every evaluation. */
export const listTriggerCourses =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const { policy, today, readings } = await readLivePolicy(deps, req);
    const courses: PolicyTriggerCourses = {
      policy_id: policy.issued.policy_id,
      as_of: today,
      covers: triggerCourses(policy, readings, today),
    };
    res.json(courses);
  };
