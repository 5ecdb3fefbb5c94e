import { actorOf } from '@cropcover/application';
import { PolicyPathParams, type PolicyTriggerCourses } from '@cropcover/contracts';
import { liveTriggerWindow, policyDataSources, triggerCourses, utcDate } from '@cropcover/domain';
import { loadReadingHistory } from '@cropcover/read-store';
import { parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../../query-api-deps';
import { readVisiblePolicy, requirePolicyReader } from '../../../visible-policy';

/** GET /insurance/policies/{policy_id}/trigger-courses — each cover's aggregate on each day of its window
 *  so far, with its trigger, exit and data source: what the console charts. Read from the frozen source
 *  and location only, like every evaluation. */
export const listTriggerCourses =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    requirePolicyReader(principal);
    const { policy_id } = parseParams(PolicyPathParams, req);
    const policy = await readVisiblePolicy(deps.db, policy_id, actorOf(principal));
    const today = utcDate(deps.clock.now());
    const window = liveTriggerWindow(policy, today);
    const readings =
      window === undefined
        ? {}
        : await loadReadingHistory(deps.db, { sources: policyDataSources(policy), from: window.start, to: window.end });
    const courses: PolicyTriggerCourses = { policy_id, as_of: today, covers: triggerCourses(policy, readings, today) };
    res.json(courses);
  };
